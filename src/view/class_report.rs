//! The class report ([`ClassReport`], computed by `content::class_report`)
//! as text (`course grade --format stats`) and as a self-contained HTML
//! page (`course grade --report`): inline CSS and SVG, no script, no
//! font, image or anything else fetched, so it opens from `file://`
//! offline. Its JSON is the serialized value.
//!
//! Every number the page shows is also in a `data-*` attribute of its
//! element (`data-count` on a histogram bar, `data-cause`,
//! `data-students`, `data-of`, `data-percent` on a cause's row, …), so a
//! test can read the page's figures back and compare them with the JSON.
//! Every string is escaped: student names come from folder names.

use std::fmt::Write as _;

use course_content::class_report::{Bin, CauseCount, ClassReport, Misplaced, Summary};

/// `s` escaped for HTML text and attribute values.
pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

/// A score or figure as printed (`7.5`, `10`).
fn num(x: f64) -> String {
    format!("{x}")
}

/// The text form: the class, then each input.
pub fn text(r: &ClassReport) -> String {
    let mut s = String::new();
    let t = &r.total;
    let _ = writeln!(
        s,
        "{}: what the class gets wrong · {} students{}",
        r.lab,
        t.summary.count,
        if t.not_graded > 0 {
            format!(" (and {} with an input not graded)", t.not_graded)
        } else {
            String::new()
        }
    );
    summary_text(&mut s, &t.summary, r.max_total, "total");
    histogram_text(&mut s, &t.histogram);
    causes_text(&mut s, &t.causes, true);
    for i in &r.inputs {
        let _ = writeln!(
            s,
            "\n== {} ({}{}, {} points)",
            i.input,
            i.kind,
            if i.hidden { ", hidden" } else { "" },
            num(i.max_score)
        );
        if i.not_graded > 0 {
            let _ = writeln!(s, "  {} not graded (a grading error)", i.not_graded);
        }
        summary_text(&mut s, &i.summary, i.max_score, "score");
        histogram_text(&mut s, &i.histogram);
        causes_text(&mut s, &i.causes, false);
        if !i.misplaced.is_empty() {
            let list: Vec<String> = i
                .misplaced
                .iter()
                .map(|m| format!("{} {} ({} %)", m.op, m.students, num(m.percent)))
                .collect();
            let line = format!("  most often misplaced: {}", list.join(", "));
            let _ = writeln!(s, "{}", course_content::text::wrap_line(&line, "    ", 80));
        }
    }
    s
}

fn summary_text(s: &mut String, m: &Summary, max: f64, what: &str) {
    let _ = writeln!(
        s,
        "  {what}: mean {} · median {} · min {} · max {} (of {}) · {} of {} valid",
        num(m.mean),
        num(m.median),
        num(m.min),
        num(m.max),
        num(max),
        m.valid,
        m.count
    );
}

fn histogram_text(s: &mut String, bins: &[Bin]) {
    let top = bins.iter().map(|b| b.count).max().unwrap_or(0).max(1);
    for (k, b) in bins.iter().enumerate() {
        let bar = "#".repeat(((b.count * 40).div_ceil(top)) as usize);
        let close = if k + 1 == bins.len() { "]" } else { ")" };
        let _ = writeln!(
            s,
            "  {:>13} {:>5} {bar}",
            format!("[{}, {}{close}", num(b.from), num(b.to)),
            b.count
        );
    }
}

fn causes_text(s: &mut String, causes: &[CauseCount], with_inputs: bool) {
    if causes.is_empty() {
        let _ = writeln!(s, "  no mistakes");
        return;
    }
    let _ = writeln!(s, "  mistakes (students who made each):");
    // Counts right-aligned to the widest class size, so the labels line up.
    let width = causes
        .iter()
        .map(|c| c.of.to_string().len())
        .max()
        .unwrap_or(1);
    for c in causes {
        let on = if with_inputs {
            format!(" · on {}", c.inputs.join(", "))
        } else {
            String::new()
        };
        let line = format!(
            "  {:>5} %  {:>width$}/{}  {}{on}",
            num(c.percent),
            c.students,
            c.of,
            c.label
        );
        let _ = writeln!(
            s,
            "{}",
            course_content::text::wrap_line(&line, "           ", 80)
        );
    }
}

const STYLE: &str = "body{font:15px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:62em;padding:0 1em;color:#222}\
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}\
table{border-collapse:collapse;margin:.6em 0}td,th{padding:.15em .6em;text-align:left;vertical-align:top}\
th{border-bottom:1px solid #999}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}td.mistakes{min-width:22em}\
tr:nth-child(even) td{background:#f6f6f6}svg{display:block;margin:.5em 0}\
.bar{fill:#4a78b5}.cbar{fill:#c2553a}.axis{stroke:#666}svg text{font:11px system-ui,sans-serif;fill:#222}\
.note{color:#666}";

/// The HTML page.
pub fn html(r: &ClassReport) -> String {
    let mut s = String::with_capacity(64 << 10);
    let title = format!("{}: what the class gets wrong", r.lab);
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{}</h1>\n",
        esc(&title),
        esc(&title)
    );
    let t = &r.total;
    let _ = writeln!(
        s,
        "<section id=\"class\" class=\"scope\" data-scope=\"class\">\n<h2>Over the class</h2>"
    );
    if t.not_graded > 0 {
        let _ = writeln!(
            s,
            "<p class=\"note\">Left out: <span data-not-graded=\"{0}\">{0}</span> students with an input not graded (a grading error).</p>",
            t.not_graded
        );
    }
    summary_html(&mut s, &t.summary, r.max_total, "Total scores");
    histogram_svg(&mut s, &t.histogram, "total scores");
    causes_html(&mut s, &t.causes, true);
    let _ = writeln!(s, "</section>");
    for i in &r.inputs {
        let _ = writeln!(
            s,
            "<section class=\"scope\" data-scope=\"input\" data-input=\"{}\" data-hidden=\"{}\">\n<h2>{} <span class=\"note\">({}{}, {} points)</span></h2>",
            esc(&i.input),
            i.hidden,
            esc(&i.input),
            i.kind,
            if i.hidden {
                ", a hidden input: the kinds of mistakes only"
            } else {
                ""
            },
            num(i.max_score)
        );
        if i.not_graded > 0 {
            let _ = writeln!(
                s,
                "<p class=\"note\">Left out: <span data-not-graded=\"{0}\">{0}</span> not graded (a grading error).</p>",
                i.not_graded
            );
        }
        summary_html(&mut s, &i.summary, i.max_score, "Scores");
        histogram_svg(&mut s, &i.histogram, &format!("scores on {}", i.input));
        causes_html(&mut s, &i.causes, false);
        misplaced_html(&mut s, &i.misplaced);
        let _ = writeln!(s, "</section>");
    }
    students_html(&mut s, r);
    s.push_str("</body>\n</html>\n");
    s
}

fn summary_html(s: &mut String, m: &Summary, max: f64, what: &str) {
    let _ = writeln!(
        s,
        "<table class=\"summary\"><tr><th>{what} (of {})</th><th class=\"n\">students</th><th class=\"n\">valid</th><th class=\"n\">mean</th><th class=\"n\">median</th><th class=\"n\">min</th><th class=\"n\">max</th></tr>\n\
         <tr><td></td><td class=\"n\" data-field=\"count\">{}</td><td class=\"n\" data-field=\"valid\">{}</td><td class=\"n\" data-field=\"mean\">{}</td><td class=\"n\" data-field=\"median\">{}</td><td class=\"n\" data-field=\"min\">{}</td><td class=\"n\" data-field=\"max\">{}</td></tr></table>",
        num(max),
        m.count,
        m.valid,
        num(m.mean),
        num(m.median),
        num(m.min),
        num(m.max)
    );
}

/// A histogram as an SVG bar chart: a bar per bin, its count above it and
/// its lower bound below.
fn histogram_svg(s: &mut String, bins: &[Bin], what: &str) {
    let (w, h, left, bottom, top_pad) = (480.0, 170.0, 10.0, 30.0, 16.0);
    let top = bins.iter().map(|b| b.count).max().unwrap_or(0).max(1) as f64;
    let bw = (w - 2.0 * left) / bins.len().max(1) as f64;
    let plot = h - bottom - top_pad;
    let _ = writeln!(
        s,
        "<svg class=\"histogram\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"histogram of {}\">",
        esc(what)
    );
    let _ = writeln!(
        s,
        "<line class=\"axis\" x1=\"{left}\" y1=\"{0}\" x2=\"{1}\" y2=\"{0}\"/>",
        h - bottom,
        w - left
    );
    for (k, b) in bins.iter().enumerate() {
        let x = left + bw * k as f64;
        let bh = plot * b.count as f64 / top;
        let y = h - bottom - bh;
        let _ = writeln!(
            s,
            "<g class=\"bin\" data-from=\"{}\" data-to=\"{}\" data-count=\"{}\"><rect class=\"bar\" x=\"{:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{bh:.1}\"><title>[{}, {}{}: {}</title></rect>\
             <text class=\"count\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text></g>",
            num(b.from),
            num(b.to),
            b.count,
            x + 1.0,
            (bw - 2.0).max(1.0),
            num(b.from),
            num(b.to),
            if k + 1 == bins.len() { "]" } else { ")" },
            b.count,
            x + bw / 2.0,
            y - 3.0,
            b.count,
            x + bw / 2.0,
            h - bottom + 14.0,
            num(b.from)
        );
    }
    s.push_str("</svg>\n");
}

/// The causes as a table and an SVG bar chart of their shares.
fn causes_html(s: &mut String, causes: &[CauseCount], with_inputs: bool) {
    if causes.is_empty() {
        s.push_str("<p class=\"none\">No mistakes.</p>\n");
        return;
    }
    let shown = causes.len().min(12);
    let (w, row, label_w) = (640.0, 18.0, 330.0);
    let h = row * shown as f64 + 6.0;
    let _ = writeln!(
        s,
        "<svg class=\"causes-chart\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"share of students per cause\">"
    );
    for (k, c) in causes.iter().take(shown).enumerate() {
        let y = 3.0 + row * k as f64;
        let bw = (w - label_w - 60.0) * c.percent / 100.0;
        let label: String = c.label.chars().take(52).collect();
        let _ = writeln!(
            s,
            "<g data-cause=\"{}\" data-percent=\"{}\"><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text><rect class=\"cbar\" x=\"{label_w}\" y=\"{y:.1}\" width=\"{bw:.1}\" height=\"{:.1}\"/><text x=\"{:.1}\" y=\"{:.1}\">{} %</text></g>",
            esc(&c.cause),
            num(c.percent),
            label_w - 6.0,
            y + row - 5.0,
            esc(&label),
            row - 4.0,
            label_w + bw + 4.0,
            y + row - 5.0,
            num(c.percent)
        );
    }
    s.push_str("</svg>\n");
    let _ = writeln!(
        s,
        "<table class=\"causes\"><tr><th>mistake</th><th class=\"n\">students</th><th class=\"n\">of</th><th class=\"n\">share</th><th class=\"n\">violations</th>{}</tr>",
        if with_inputs { "<th>on</th>" } else { "" }
    );
    for c in causes {
        let on = if with_inputs {
            format!("<td class=\"inputs\">{}</td>", esc(&c.inputs.join(", ")))
        } else {
            String::new()
        };
        let _ = writeln!(
            s,
            "<tr class=\"cause\" data-cause=\"{}\" data-students=\"{}\" data-of=\"{}\" data-percent=\"{}\" data-count=\"{}\"><td class=\"label\">{}</td><td class=\"n\" data-field=\"students\">{}</td><td class=\"n\" data-field=\"of\">{}</td><td class=\"n\" data-field=\"percent\">{} %</td><td class=\"n\" data-field=\"count\">{}</td>{on}</tr>",
            esc(&c.cause),
            c.students,
            c.of,
            num(c.percent),
            c.count,
            esc(&c.label),
            c.students,
            c.of,
            num(c.percent),
            c.count
        );
    }
    s.push_str("</table>\n");
}

fn misplaced_html(s: &mut String, ops: &[Misplaced]) {
    if ops.is_empty() {
        return;
    }
    s.push_str("<table class=\"misplaced\"><tr><th>operation most often misplaced</th><th class=\"n\">students</th><th class=\"n\">share</th></tr>\n");
    for m in ops {
        let _ = writeln!(
            s,
            "<tr class=\"op\" data-op=\"{}\" data-students=\"{}\" data-percent=\"{}\"><td>{}</td><td class=\"n\" data-field=\"students\">{}</td><td class=\"n\" data-field=\"percent\">{} %</td></tr>",
            esc(&m.op),
            m.students,
            num(m.percent),
            esc(&m.op),
            m.students,
            num(m.percent)
        );
    }
    s.push_str("</table>\n");
}

fn students_html(s: &mut String, r: &ClassReport) {
    let _ = writeln!(
        s,
        "<section id=\"students\">\n<h2>Students</h2>\n<table class=\"students\"><tr><th>student</th><th>id</th><th class=\"n\">total</th>"
    );
    for i in &r.inputs {
        let _ = write!(s, "<th class=\"n\">{}</th>", esc(&i.input));
    }
    s.push_str("<th>mistakes</th></tr>\n");
    for st in &r.students {
        let total = st.total.map(num).unwrap_or_default();
        let _ = write!(
            s,
            "<tr class=\"student\" data-name=\"{}\" data-total=\"{}\"><td class=\"name\"><span class=\"who\">{}</span>{}</td><td class=\"id\">{}</td><td class=\"n\" data-field=\"total\">{}</td>",
            esc(&st.name),
            esc(&total),
            esc(&st.name),
            if st.note.is_empty() {
                String::new()
            } else {
                format!(" <span class=\"note\">({})</span>", esc(&st.note))
            },
            esc(&st.id),
            esc(&total)
        );
        for sc in &st.scores {
            let _ = write!(
                s,
                "<td class=\"n score\">{}</td>",
                sc.map(num).unwrap_or_default()
            );
        }
        let list: Vec<String> = st
            .mistakes
            .iter()
            .map(|m| {
                if m.input.is_empty() {
                    esc(&m.label)
                } else {
                    format!("{}: {}", esc(&m.input), esc(&m.label))
                }
            })
            .collect();
        let _ = writeln!(s, "<td class=\"mistakes\">{}</td></tr>", list.join("; "));
    }
    s.push_str("</table>\n</section>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use course_content::class_report::class_report;
    use course_content::data::Source;
    use course_content::lab::{StudentReport, grade_input, load_lab};

    #[test]
    fn every_string_is_escaped_and_every_figure_is_in_an_attribute() {
        let lab = load_lab(&Source::Embedded, "ch23-sched").unwrap();
        let inputs = lab
            .inputs
            .iter()
            .map(|li| {
                let t = li.reference_text().replace("e 8", "e 6");
                grade_input(li, &lab.machine, lab.points, Ok(&t))
            })
            .collect();
        let st = StudentReport::new("<b>\"x\" & 'y'</b>", inputs);
        let r = class_report(&lab, &[st], Some(&[("<i>".into(), "<id>".into())]));
        let h = html(&r);
        assert!(!h.contains("<b>") && !h.contains("<i>") && !h.contains("<id>"));
        assert!(h.contains("&lt;b&gt;&quot;x&quot; &amp; &#39;y&#39;&lt;/b&gt;"));
        assert!(
            !h.contains("<script")
                && !h.contains("http:")
                && !h.contains("https:")
                && !h.contains("src="),
            "no script, no link"
        );
        assert!(h.contains("data-cause=\"occupancy:div:mul\" data-students=\"1\" data-of=\"2\" data-percent=\"50\""), "{h}");
        let t = text(&r);
        assert!(t.contains("50 %  1/2  div occupancy ignored"), "{t}");
        assert!(t.lines().all(|l| l.chars().count() <= 80), "{t}");
    }
}
