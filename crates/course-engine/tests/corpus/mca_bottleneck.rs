//! The bottleneck of a simulation (`course mca --bottleneck`) on the corpus
//! kernels: never below the Theorem 23.1.12 bound, and naming the bound it
//! sits on.

use course_engine::engine::mca::bottleneck::{Binding, bottleneck};
use course_engine::engine::mca::{Options, recurrence, simulate};
use course_engine::engine::mii;

use crate::kernels;

/// On every corpus kernel the simulation never beats the Theorem 23.1.12
/// bound in its steady state, and where it sits within 5 % of the larger
/// bound, `--bottleneck` names that bound: the resource RThroughput comes
/// from, or the critical recurrence.
#[test]
fn the_bottleneck_names_the_bound_the_corpus_sits_on() {
    let mut named = 0;
    for model in kernels::MODELS {
        let m = kernels::machine(model);
        for path in kernels::lab_files(model) {
            let text = std::fs::read_to_string(&path).unwrap();
            let p = course_engine::parse(&text, "k.txt", &m).unwrap();
            let r = simulate(
                &p,
                &m,
                &Options {
                    iterations: 100,
                    timeline_iterations: 0,
                },
            )
            .unwrap();
            let b = bottleneck(&p, &m, &r);
            let res = mii::analyze(&p, &m).rthroughput.to_f64();
            let rec = recurrence(&p, &m).map_or(0.0, |z| z.ratio().to_f64());
            let bound = res.max(rec);
            let name = path.display();
            assert!(
                b.steady >= bound - 1e-9,
                "{name}: {} below {bound}",
                b.steady
            );
            if b.steady <= bound * 1.05 {
                named += 1;
                match b.binding {
                    Binding::Recurrence(_) => {
                        assert!(rec > res, "{name}: recurrence named, {rec} ≤ {res}")
                    }
                    Binding::Resource { .. } => {
                        assert!(res >= rec, "{name}: resource named, {res} < {rec}")
                    }
                }
            }
        }
    }
    assert!(named >= 10, "only {named} kernels sit on a bound");
}
