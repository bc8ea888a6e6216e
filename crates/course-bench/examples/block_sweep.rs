use course_content::generate::{self, GenParams};
use course_engine::engine::{check::check_cycles, list, optimum};
use course_engine::model::machine::Machine;
use course_engine::model::program::Kind;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let sizes: Vec<u64> = args[1].split(',').map(|s| s.parse().unwrap()).collect();
    let (a, b) = args[2].split_once('-').unwrap();
    let seeds: Vec<u64> = (a.parse().unwrap()..=b.parse::<u64>().unwrap()).collect();
    let m = Machine::toy();
    for &n in &sizes {
        let mut times = Vec::new();
        let mut proven = 0;
        let mut better = 0;
        for &seed in &seeds {
            let (_, p) =
                generate::program(&m, &GenParams::block_default(), seed, Some(n), Kind::Block);
            let t0 = Instant::now();
            let l = list::list_schedule(&p, &m);
            let budget: u64 = std::env::var("BUDGET")
                .map(|s| s.parse().unwrap())
                .unwrap_or(optimum::DEFAULT_BUDGET);
            let o = optimum::optimum(&p, &m, &l.cycles, budget);
            let dt = t0.elapsed().as_secs_f64();
            let bad = check_cycles(&p, &m, &o.cycles, None);
            assert!(bad.is_empty(), "{n}/{seed} {:?} {:?}", bad, o);
            times.push(dt);
            proven += o.proven() as u32;
            better += (o.length < l.length) as u32;
            println!(
                "{n:3} {seed:3} list {:3} opt {:3} lower {:3} conflicts {:6} {:8.2}ms",
                l.length,
                o.length,
                o.lower,
                o.conflicts,
                dt * 1e3
            );
        }
        times.sort_by(|a, b| a.partial_cmp(b).unwrap());
        println!(
            "== {n}: proven {proven}/{} list above {better} median {:.2}ms worst {:.2}ms",
            seeds.len(),
            times[times.len() / 2] * 1e3,
            times[times.len() - 1] * 1e3
        );
    }
}
