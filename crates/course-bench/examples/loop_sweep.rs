use course_engine::engine::check::check_cycles;
use course_engine::engine::modulo::{self, Minimality};
use course_engine::model::machine::Machine;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let sizes: Vec<u64> = args[1].split(',').map(|s| s.parse().unwrap()).collect();
    let (a, b) = args[2].split_once('-').unwrap();
    let seeds: Vec<u64> = (a.parse().unwrap()..=b.parse::<u64>().unwrap()).collect();
    let budget: u64 = std::env::var("BUDGET")
        .map(|s| s.parse().unwrap())
        .unwrap_or(modulo::exact::DEFAULT_BUDGET);
    let m = Machine::toy();
    for &n in &sizes {
        let mut times = Vec::new();
        let mut proven = 0;
        for &seed in &seeds {
            let (_, p) = course_bench::random_loop(&m, seed, n);
            let t0 = Instant::now();
            let s = modulo::modulo_schedule_with(&p, &m, budget);
            let dt = t0.elapsed().as_secs_f64();
            assert!(
                check_cycles(&p, &m, &s.cycles, Some(s.ii)).is_empty(),
                "{n}/{seed}"
            );
            times.push(dt);
            let ok = matches!(s.minimality, Minimality::Mii | Minimality::Proven);
            proven += ok as u32;
            println!(
                "{n:3} {seed:3} mii {:3} heur {:3} ii {:3} lower {:3} {:?} {:8.2}ms",
                s.mii,
                s.heuristic_ii,
                s.ii,
                s.lower,
                s.minimality,
                dt * 1e3
            );
        }
        times.sort_by(|a, b| a.partial_cmp(b).unwrap());
        println!(
            "== {n}: proven {proven}/{} median {:.2}ms worst {:.2}ms",
            seeds.len(),
            times[times.len() / 2] * 1e3,
            times[times.len() - 1] * 1e3
        );
    }
}
