//! `course-bench`: the figures of the scale benchmarks as typed results
//! (their JSON form) and their text view, one table per section.

use serde::Serialize;

use course_content::text::{bytes, columns};

/// One measured figure. Fields are declared in alphabetical order, the
/// order JSON objects print their keys in.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Measurement {
    /// What was timed (`schedule`, `generate`, `parse`, `howard`, `enumerate`, …).
    pub label: String,
    /// The slowest of the runs, in seconds, where the spread is reported
    /// (whole processes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_s: Option<f64>,
    /// Median wall time of `runs` runs, in seconds.
    pub median_s: f64,
    /// The fastest of the runs, in seconds (with `max_s`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_s: Option<f64>,
    /// A derived figure (circuits, states, submissions per second, …), or
    /// the command that reproduces a whole-process figure.
    pub note: String,
    /// The most heap memory one run held at once beyond what existed when it
    /// started, in bytes ([`crate::heap::peak_during`]); `None` when not
    /// measured or when the counting allocator is not installed.
    pub peak_bytes: Option<u64>,
    /// The largest peak resident set size of the runs, in bytes, for whole
    /// processes (the kernel's high-water mark of the child).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peak_rss_bytes: Option<u64>,
    pub runs: usize,
    /// The size parameter: operations, `k`, `D`, or a count of runs.
    pub size: u64,
}

/// A least-squares slope of `log t` against `log size` over a size range.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fit {
    pub from: u64,
    pub label: String,
    pub slope: f64,
    pub to: u64,
}

/// One benchmark's figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Section {
    pub fits: Vec<Fit>,
    pub measurements: Vec<Measurement>,
    pub name: String,
    pub title: String,
}

/// Every section run, in order. Serializes as the list of sections.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(transparent)]
pub struct BenchOutput {
    pub sections: Vec<Section>,
}

fn duration(s: f64) -> String {
    if s >= 1.0 {
        format!("{s:.3} s")
    } else if s >= 1e-3 {
        format!("{:.3} ms", s * 1e3)
    } else {
        format!("{:.1} µs", s * 1e6)
    }
}

/// One section as a titled table, then its slopes. Whole-process sections
/// also show the range of the runs and the peak resident memory.
pub fn section_text(s: &Section) -> String {
    let spread = s.measurements.iter().any(|m| m.min_s.is_some());
    let rss = s.measurements.iter().any(|m| m.peak_rss_bytes.is_some());
    let heap = !rss || s.measurements.iter().any(|m| m.peak_bytes.is_some());
    let mut header = vec!["measure".to_string(), "size".into(), "median".into()];
    if spread {
        header.push("min–max".into());
    }
    header.push("runs".into());
    if heap {
        header.push("peak heap".into());
    }
    if rss {
        header.push("peak RSS".into());
    }
    header.push("note".into());
    let mut rows = vec![header];
    for m in &s.measurements {
        let mut row = vec![m.label.clone(), m.size.to_string(), duration(m.median_s)];
        if spread {
            row.push(match (m.min_s, m.max_s) {
                (Some(lo), Some(hi)) => format!("{}–{}", duration(lo), duration(hi)),
                _ => "-".into(),
            });
        }
        row.push(m.runs.to_string());
        if heap {
            row.push(m.peak_bytes.map_or("-".into(), bytes));
        }
        if rss {
            row.push(m.peak_rss_bytes.map_or("-".into(), bytes));
        }
        row.push(m.note.clone());
        rows.push(row);
    }
    let mut out = format!("## {} ({})\n", s.title, s.name);
    out.push_str(&columns(&rows));
    for f in &s.fits {
        out.push_str(&format!(
            "slope of {} from {} to {}: {:.2}\n",
            f.label, f.from, f.to, f.slope
        ));
    }
    out
}

/// Every section's text, in order.
pub fn text(b: &BenchOutput) -> String {
    b.sections.iter().map(section_text).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_pick_their_unit() {
        assert_eq!(duration(2.0), "2.000 s");
        assert_eq!(duration(0.0125), "12.500 ms");
        assert_eq!(duration(3e-6), "3.0 µs");
    }

    #[test]
    fn sections_print_in_json_key_order() {
        let s = Section {
            fits: vec![Fit {
                from: 1,
                label: "x".into(),
                slope: 1.0,
                to: 10,
            }],
            measurements: vec![Measurement {
                label: "x".into(),
                median_s: 0.5,
                note: String::new(),
                peak_bytes: None,
                runs: 1,
                size: 1,
                ..Default::default()
            }],
            name: "n".into(),
            title: "T".into(),
        };
        let j = serde_json::to_string(&BenchOutput {
            sections: vec![s.clone()],
        })
        .unwrap();
        let v: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert_eq!(j, v.to_string());
        assert!(section_text(&s).starts_with("## T (n)\n"));
        assert!(section_text(&s).ends_with("slope of x from 1 to 10: 1.00\n"));
    }
}
