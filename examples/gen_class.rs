//! Writes a seeded made-up class folder for a lab (`content::class_gen`):
//! one folder per student with their `.sched` files, for measuring
//! `course grade --report` (BENCHMARKS.md).
//!
//!   cargo run --release --example gen_class -- STUDENTS SEED DIR [LAB]

use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(students), Some(seed), Some(dir)) = (
        args.first().and_then(|s| s.parse::<usize>().ok()),
        args.get(1).and_then(|s| s.parse::<u64>().ok()),
        args.get(2),
    ) else {
        eprintln!("usage: gen_class STUDENTS SEED DIR [LAB]");
        return ExitCode::from(2);
    };
    let lab = args.get(3).map_or("ch23-sched", String::as_str);
    let lab = match course_content::lab::load_lab(&course_content::data::Source::Embedded, lab) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("gen_class: {e}");
            return ExitCode::from(2);
        }
    };
    for st in course_content::class_gen::class(&lab, students, seed) {
        let d = Path::new(dir).join(&st.name);
        let written = std::fs::create_dir_all(&d).and_then(|()| {
            st.files
                .iter()
                .try_for_each(|(f, text)| std::fs::write(d.join(f), text))
        });
        if let Err(e) = written {
            eprintln!("gen_class: {}: {e}", d.display());
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
}
