//! `course bench`: the figures of the scale benchmarks as typed results
//! (their JSON form) and their text view, one table per section.

use serde::Serialize;

use crate::util::text::{bytes, columns};

/// One measured figure. Fields are declared in alphabetical order, the
/// order JSON objects print their keys in.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Measurement {
    /// What was timed (`schedule`, `generate`, `parse`, `howard`, `enumerate`, …).
    pub label: String,
    /// Median wall time of `runs` runs, in seconds.
    pub median_s: f64,
    /// A derived figure (circuits, states, submissions per second, …).
    pub note: String,
    /// The most heap memory one run held at once beyond what existed when it
    /// started, in bytes ([`crate::util::heap::peak_during`]); `None` when not
    /// measured or when the counting allocator is not installed.
    pub peak_bytes: Option<u64>,
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

/// One section as a titled table, then its slopes.
pub fn section_text(s: &Section) -> String {
    let mut rows = vec![vec![
        "measure".to_string(),
        "size".into(),
        "median".into(),
        "runs".into(),
        "peak heap".into(),
        "note".into(),
    ]];
    for m in &s.measurements {
        rows.push(vec![
            m.label.clone(),
            m.size.to_string(),
            duration(m.median_s),
            m.runs.to_string(),
            m.peak_bytes.map_or("-".into(), bytes),
            m.note.clone(),
        ]);
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
