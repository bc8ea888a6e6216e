use course_engine::engine::modulo::exact;
use course_engine::model::machine::Machine;
use std::time::Instant;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let m = Machine::toy();
    for spec in args[1].split(',') {
        let v: Vec<u64> = spec.split(':').map(|s| s.parse().unwrap()).collect();
        let (_, p) = course_bench::random_loop(&m, v[1], v[0]);
        let t0 = Instant::now();
        let mut b = 10_000_000;
        let out = exact::search_counted(&p, &m, v[2], &mut b);
        println!(
            "{spec}: {} conflicts {} {:.1}ms",
            match out {
                exact::Outcome::Found(_) => "found".to_string(),
                o => format!("{o:?}"),
            },
            10_000_000 - b,
            t0.elapsed().as_secs_f64() * 1e3
        );
    }
}
