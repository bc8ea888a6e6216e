//! Class rosters and gradebooks as text: a roster CSV read into a
//! [`Roster`] (each student's id and e-mail by folder name), and a
//! gradebook CSV merged into the class's ([`merge_csv`]). Pure text in,
//! values out: the caller reads the files.

use crate::csv;

/// A roster: student id and e-mail by folder name (the name as reports
/// show it, escaped when it is not UTF-8).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Roster {
    /// Folder name → (id, e-mail), in the roster's order.
    pub entries: Vec<(String, String, String)>,
}

impl Roster {
    /// Reads a roster CSV: a header naming a `folder` column and optional
    /// `id` and `email` columns (any order, any case; other columns are
    /// ignored), then one row per student.
    pub fn parse(text: &str, origin: &str) -> Result<Roster, String> {
        let rows = csv::parse(text, origin)?;
        let Some((header, rows)) = rows.split_first() else {
            return Err(format!(
                "{origin}: empty; expected a header 'folder,id,email'"
            ));
        };
        let col = |name: &str| {
            header
                .iter()
                .position(|h| h.trim().eq_ignore_ascii_case(name))
        };
        let folder = col("folder").ok_or_else(|| {
            format!("{origin}:1: no 'folder' column (the header is 'folder,id,email')")
        })?;
        let (id, email) = (col("id"), col("email"));
        let cell = |r: &[String], c: Option<usize>| {
            c.and_then(|c| r.get(c))
                .map(|s| s.trim().to_string())
                .unwrap_or_default()
        };
        let mut entries: Vec<(String, String, String)> = Vec::new();
        for (i, r) in rows.iter().enumerate() {
            let f = cell(r, Some(folder));
            if f.is_empty() {
                return Err(format!("{origin}:{}: no folder name", i + 2));
            }
            if entries.iter().any(|e| e.0 == f) {
                return Err(format!(
                    "{origin}:{}: the folder {f} is listed twice",
                    i + 2
                ));
            }
            entries.push((f, cell(r, id), cell(r, email)));
        }
        Ok(Roster { entries })
    }

    /// The id and e-mail of the student in `folder`, when listed.
    pub fn get(&self, folder: &str) -> Option<(&str, &str)> {
        self.entries
            .iter()
            .find(|e| e.0 == folder)
            .map(|e| (e.1.as_str(), e.2.as_str()))
    }
}

/// Merges the rows of `update` (a gradebook CSV of some students, such as
/// one regraded student) into `class` (the class's gradebook CSV): a
/// student's row is replaced in place, keeping its id and e-mail when the
/// update has none; new students are added at the end. Both must have the
/// same header (the same lab).
pub fn merge_csv(class: &str, class_origin: &str, update: &str) -> Result<String, String> {
    let old = csv::parse(class, class_origin)?;
    let new = csv::parse(update, "the regraded rows")?;
    let (Some((oh, orows)), Some((nh, nrows))) = (old.split_first(), new.split_first()) else {
        return Err(format!("{class_origin}: empty; expected a gradebook CSV"));
    };
    if oh != nh {
        return Err(format!(
            "{class_origin}: its header is '{}', not '{}': not a gradebook of this lab (made with --format csv)",
            oh.join(","),
            nh.join(",")
        ));
    }
    let mut rows: Vec<Vec<String>> = orows.to_vec();
    for n in nrows {
        let mut n = n.clone();
        match rows.iter_mut().find(|r| r.first() == n.first()) {
            Some(r) => {
                for c in 1..=2 {
                    if n.get(c).is_some_and(String::is_empty)
                        && let Some(old) = r.get(c)
                    {
                        n[c] = old.clone();
                    }
                }
                *r = n;
            }
            None => rows.push(n),
        }
    }
    let mut s = csv::record(oh);
    for r in &rows {
        s.push_str(&csv::record(r));
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_roster_is_read_by_its_header() {
        let roster = Roster::parse(
            "Folder,Email,ID\nann,ann@u.edu,17\nbob,bob@u.edu,18\n",
            "roster.csv",
        )
        .unwrap();
        assert_eq!(roster.get("bob"), Some(("18", "bob@u.edu")));
        assert_eq!(roster.get("cid"), None);
        assert!(
            Roster::parse("id\n1\n", "r.csv")
                .unwrap_err()
                .contains("no 'folder' column")
        );
        assert!(
            Roster::parse("folder\nann\nann\n", "r.csv")
                .unwrap_err()
                .contains("r.csv:3: the folder ann is listed twice")
        );
    }

    #[test]
    fn regraded_rows_replace_theirs_and_keep_the_roster_columns() {
        let class = "student,id,email,total,max_total,running,notes\n\
                     ann,17,ann@u.edu,10,10,10,\n\
                     bob,18,bob@u.edu,0,10,0,no submission folder\n";
        let regraded =
            "student,id,email,total,max_total,running,notes\nbob,,,6,10,6,\ncid,,,1,10,1,\n";
        let merged = merge_csv(class, "class.csv", regraded).unwrap();
        assert_eq!(
            merged,
            "student,id,email,total,max_total,running,notes\n\
             ann,17,ann@u.edu,10,10,10,\n\
             bob,18,bob@u.edu,6,10,6,\n\
             cid,,,1,10,1,\n"
        );
        assert!(
            merge_csv("a,b\n", "x.csv", regraded)
                .unwrap_err()
                .contains("header")
        );
    }
}
