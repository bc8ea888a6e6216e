//! The texts of `course next` and `course watch`: the exercise file of a
//! step of the chapter's path, and what is said around it.

use course_content::path::Step;

/// The exercise file of `step` (of `total`): the problem's first line,
/// then the problem as `#` comments, then room for the answer.
pub fn exercise_file(step: &Step, total: usize, problem: &str) -> String {
    let mut lines = problem.lines();
    let first = lines.next().unwrap_or_default();
    let mut s = format!("{first}\n");
    s.push_str(&format!(
        "# Step {} of {total} on the path through Lesson 23.1. Write your answer\n\
         # below the problem and save: `course watch` checks every save\n\
         # (`course next` checks once). Lines starting with # are not read.\n#\n",
        step.number
    ));
    for l in lines {
        if l.is_empty() {
            s.push_str("#\n");
        } else {
            s.push_str(&format!("# {l}\n"));
        }
    }
    s.push_str("\n# Your answer:\n\n");
    s
}

/// Said when a step's file is written.
pub fn wrote(step: &Step, total: usize, file: &str) -> String {
    format!(
        "Step {} of {total}: drill {} (seed {}) is in {file}. Write your answer below the \
         problem and save.\n",
        step.number,
        step.drill.name(),
        step.seed
    )
}

/// Said when the path is done.
pub fn done(total: usize) -> String {
    format!(
        "All {total} steps of the path through Lesson 23.1 are done. `course practice` \
         picks what to practise next.\n"
    )
}

/// Said while a step's file holds no answer yet.
pub fn waiting(file: &str) -> String {
    format!("{file}: no answer yet (every line is blank or a # comment).\n")
}
