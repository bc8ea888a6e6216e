//! Tests of the whole pipeline on small hand-made processors: dependencies,
//! partial writes, zero idioms, move elimination, memory ordering, in-order
//! issue, the views, and that the steady-state jump changes nothing.

use super::views::{self, ViewSet};
use super::{Options, Report, SimError, simulate};
use crate::model::mc::{
    Def, Desc, Instr, ProcResource, Processor, ReadDesc, RegisterFile, Registers, ResourceUse, Use,
    WriteDesc,
};
use crate::util::rng::Rng;

/// Registers `R0`..`R7` (ids 1..=8), each with a low part `R0L`..`R7L`
/// (ids 9..=16).
fn registers() -> Registers {
    let mut r = Registers {
        names: vec![String::new()],
        subregs: vec![Vec::new()],
        superregs: vec![Vec::new()],
        ..Registers::default()
    };
    for i in 0..8u16 {
        r.names.push(format!("R{i}"));
        r.subregs.push(vec![9 + i]);
        r.superregs.push(Vec::new());
    }
    for i in 0..8u16 {
        r.names.push(format!("R{i}L"));
        r.subregs.push(Vec::new());
        r.superregs.push(vec![1 + i]);
    }
    r
}

fn unit(name: &str, mask: u64) -> ProcResource {
    ProcResource {
        name: name.into(),
        units: 1,
        buffer_size: -1,
        mask,
        ..ProcResource::default()
    }
}

/// A descriptor of `uops` micro-ops and latency `lat` on resource `res`
/// (1: ALU0, 2: ALU1, 3: MEM, 4: the ALU0/ALU1 group) with one write and
/// two reads.
fn desc(res: u16, lat: u32, uops: u32) -> Desc {
    let mask = [0, 1, 2, 4, 11][usize::from(res)];
    Desc {
        uops,
        max_latency: lat,
        resources: vec![ResourceUse {
            resource: res,
            end: 1,
            units: 1,
            ..ResourceUse::default()
        }],
        used_units: if res == 4 { 0 } else { mask },
        used_groups: if res == 4 { 8 } else { 0 },
        writes: vec![WriteDesc {
            latency: lat,
            ..WriteDesc::default()
        }],
        reads: vec![
            ReadDesc {
                op_index: 1,
                ..ReadDesc::default()
            },
            ReadDesc {
                op_index: 2,
                use_index: 1,
                ..ReadDesc::default()
            },
        ],
        write_proc_res: vec![(res, 1, 0)],
        ..Desc::default()
    }
}

/// Two ALUs and a memory port, a 16-entry buffer, 2 micro-ops a cycle.
/// Descriptors: 0 add (group, 1 cycle), 1 mul (ALU0, 3), 2 load (MEM, 4).
fn processor(llvm: u32) -> Processor {
    let mut group = unit("ALU01", 11);
    group.units = 2;
    group.sub_units = vec![1, 2];
    Processor {
        name: "toy".into(),
        llvm,
        issue_width: 2,
        micro_op_buffer_size: 16,
        resources: vec![
            ProcResource::default(),
            unit("ALU0", 1),
            unit("ALU1", 2),
            unit("MEM", 4),
            group,
        ],
        descs: vec![desc(4, 1, 1), desc(1, 3, 1), desc(3, 4, 1)],
        ..Processor::default()
    }
}

/// `rd = op(ra, rb)` with descriptor `d`.
fn op(d: u32, rd: u16, ra: u16, rb: u16) -> Instr {
    Instr {
        desc: d,
        defs: vec![Def {
            register: rd,
            ..Def::default()
        }],
        uses: vec![
            Use {
                register: ra,
                ..Use::default()
            },
            Use {
                register: rb,
                read: 1,
                ..Use::default()
            },
        ],
        ..Instr::default()
    }
}

fn run(p: &Processor, kernel: &[Instr], iterations: u64) -> Report {
    let opts = Options {
        iterations,
        ..Options::default()
    };
    match simulate(p, &registers(), kernel, &opts) {
        Ok(r) => r,
        Err(e) => panic!("simulation failed: {e}"),
    }
}

#[test]
fn a_chain_of_multiplies_takes_their_latency() {
    let p = processor(22);
    let r = run(&p, &[op(1, 1, 1, 2)], 10);
    // Dispatched at 0, issued at 1, ten 3-cycle multiplies, retired a
    // cycle after the last one.
    assert_eq!(r.total_cycles, 33);
    assert_eq!(r.pressure, vec![vec![10, 0, 0]]);
}

#[test]
fn independent_adds_use_both_alus() {
    let p = processor(22);
    let r = run(&p, &[op(0, 1, 3, 4), op(0, 2, 3, 4)], 100);
    assert_eq!(r.total_cycles, 103);
    assert_eq!(r.pressure, vec![vec![0, 100, 0], vec![100, 0, 0]]);
}

#[test]
fn a_partial_write_waits_for_the_whole_register() {
    // The file renames R0..R7 as themselves: a write of R0L merges into
    // R0 and waits for the multiply that wrote R0.
    let mut p = processor(22);
    p.register_files.push(RegisterFile {
        name: "RF".into(),
        costs: vec![((1..=8).collect(), 1, false)],
        ..RegisterFile::default()
    });
    let kernel = [op(1, 1, 2, 3), op(0, 9, 4, 5)];
    let merged = run(&p, &kernel, 1);
    let mut clearing = kernel.clone();
    clearing[1].defs[0].clears_super = true;
    let renamed = run(&p, &clearing, 1);
    assert_eq!(merged.timeline[1].ready, 4);
    assert_eq!(renamed.timeline[1].ready, 0);
    assert!(merged.total_cycles > renamed.total_cycles);
}

#[test]
fn a_zero_idiom_does_not_wait() {
    let p = processor(22);
    let mut kernel = [op(1, 1, 1, 2), op(0, 1, 1, 1)];
    let dependent = run(&p, &kernel, 1);
    for u in &mut kernel[1].uses {
        u.independent = true;
    }
    let idiom = run(&p, &kernel, 1);
    assert_eq!(dependent.timeline[1].issued, 4);
    assert_eq!(idiom.timeline[1].issued, 1);
}

#[test]
fn moves_are_eliminated_at_renaming() {
    let mut p = processor(22);
    p.register_files.push(RegisterFile {
        name: "RF".into(),
        costs: vec![((1..=8).collect(), 1, true)],
        ..RegisterFile::default()
    });
    let mut mv = op(0, 2, 1, 0);
    mv.uses.truncate(1);
    mv.optimizable_move = true;
    let r = run(&p, &[op(1, 1, 1, 3), mv, op(1, 3, 2, 2)], 1);
    let e = r.timeline[1];
    // Eliminated: ready, issued and executed as it dispatches; its reader
    // waits for the multiply behind the alias.
    assert_eq!((e.dispatched, e.issued, e.executed), (0, 0, 0));
    assert_eq!(r.timeline[2].issued, 4);
    assert_eq!(r.pressure[1], vec![0, 0, 0]);
}

#[test]
fn stores_wait_for_older_loads_and_loads_without_noalias_for_stores() {
    let mut p = processor(22);
    // A slow store on ALU1 (the load has the memory port to itself).
    let mut store = desc(2, 5, 1);
    store.writes.clear();
    p.descs.push(store);
    let mut ld = op(2, 1, 2, 3);
    ld.may_load = true;
    let mut st = op(3, 0, 2, 3);
    st.defs.clear();
    st.may_store = true;
    let kernel = [st.clone(), ld];
    let noalias = run(&p, &kernel, 1);
    let opts = Options {
        iterations: 1,
        noalias: false,
        ..Options::default()
    };
    let aliasing = simulate(&p, &registers(), &kernel, &opts).unwrap_or_else(|e| panic!("{e}"));
    // The load cannot pass the store: it issues after the store executes.
    assert_eq!(noalias.timeline[1].issued, 1);
    assert_eq!(aliasing.timeline[1].issued, 6);
}

#[test]
fn in_order_issue_stalls_behind_a_dependency() {
    let mut p = processor(22);
    p.micro_op_buffer_size = 0;
    let r = run(&p, &[op(1, 1, 2, 3), op(0, 4, 1, 1), op(0, 5, 6, 7)], 1);
    // The add waits for the multiply; the independent add behind it too.
    assert_eq!(r.timeline[1].issued, 3);
    assert_eq!(r.timeline[2].issued, 3);
}

#[test]
fn bad_models_are_refused() {
    let p = processor(22);
    assert_eq!(
        simulate(&p, &registers(), &[], &Options::default()),
        Err(SimError::Empty)
    );
    let bad = Instr {
        desc: 99,
        ..Instr::default()
    };
    assert!(matches!(
        simulate(&p, &registers(), &[bad], &Options::default()),
        Err(SimError::Model(_))
    ));
}

/// Kernels of every kind, for the extrapolation test.
fn kernels() -> Vec<Vec<Instr>> {
    let mut ld = op(2, 3, 3, 4);
    ld.may_load = true;
    vec![
        vec![op(1, 1, 1, 2)],
        vec![op(0, 1, 3, 4), op(0, 2, 3, 4)],
        vec![ld.clone(), op(1, 1, 1, 3), op(0, 4, 4, 5), op(0, 5, 4, 4)],
        vec![op(1, 1, 2, 3), op(1, 2, 1, 3), op(0, 3, 2, 1), ld],
    ]
}

#[test]
fn extrapolation_changes_nothing() {
    for llvm in [14, 22] {
        for buffer in [16, 0] {
            let mut p = processor(llvm);
            p.micro_op_buffer_size = buffer;
            for k in kernels() {
                for it in [1, 2, 3, 10, 11, 97, 1000, 1001, 4099] {
                    let on = Options {
                        iterations: it,
                        timeline_iterations: 3,
                        ..Options::default()
                    };
                    let off = Options {
                        extrapolate: false,
                        ..on
                    };
                    let a = simulate(&p, &registers(), &k, &on).unwrap_or_else(|e| panic!("{e}"));
                    let mut b =
                        simulate(&p, &registers(), &k, &off).unwrap_or_else(|e| panic!("{e}"));
                    assert_eq!(b.extrapolated_iterations, 0);
                    if it >= 1000 {
                        assert!(a.extrapolated_iterations > 0, "{llvm} {buffer} {it}");
                    }
                    b.extrapolated_iterations = a.extrapolated_iterations;
                    assert_eq!(a, b, "llvm {llvm}, buffer {buffer}, {it} iterations");
                }
            }
        }
    }
}

#[test]
fn a_billion_iterations_are_cheap() {
    let p = processor(22);
    let r = run(&p, &kernels()[2], 1_000_000_000);
    assert_eq!(r.iterations, 1_000_000_000);
    assert!(r.extrapolated_iterations > 999_000_000);
}

#[test]
fn the_views_print_as_llvm_mca() {
    let p = processor(22);
    let kernel = [op(1, 1, 1, 2), op(0, 3, 1, 2)];
    let texts = vec!["mul\tr1, r1, r2".to_string(), "add\tr3, r1, r2".to_string()];
    let opts = Options {
        iterations: 2,
        ..Options::default()
    };
    let r = simulate(&p, &registers(), &kernel, &opts).unwrap_or_else(|e| panic!("{e}"));
    let all = ViewSet {
        timeline: true,
        ..ViewSet::default()
    };
    let text = views::region(&p, &kernel, &texts, &r, all, None);
    let expected = concat!(
        "Iterations:        2\nInstructions:      4\nTotal Cycles:      10\nTotal uOps:        4\n\n",
        "Dispatch Width:    2\nuOps Per Cycle:    0.40\nIPC:               0.40\nBlock RThroughput: 1.0\n",
        "\n\nInstruction Info:\n[1]: #uOps\n[2]: Latency\n[3]: RThroughput\n[4]: MayLoad\n",
        "[5]: MayStore\n[6]: HasSideEffects (U)\n\n",
        "[1]    [2]    [3]    [4]    [5]    [6]    Instructions:\n",
        " 1      3     1.00                        mul\tr1, r1, r2\n",
        " 1      1     0.50                        add\tr3, r1, r2\n",
        "\n\nResources:\n[0]   - ALU0\n[1]   - ALU1\n[2]   - MEM\n",
        "\n\nResource pressure per iteration:\n[0]    [1]    [2]    \n1.00   1.00    -     \n",
        "\nResource pressure by instruction:\n[0]    [1]    [2]    Instructions:\n",
        "1.00    -      -     mul\tr1, r1, r2\n",
        " -     1.00    -     add\tr3, r1, r2\n",
        "\n\nTimeline view:\nIndex     0123456789\n\n",
        "[0,0]     DeeeER   .   mul\tr1, r1, r2\n",
        "[0,1]     D===eER  .   add\tr3, r1, r2\n",
        "[1,0]     .D==eeeER.   mul\tr1, r1, r2\n",
        "[1,1]     .D=====eER   add\tr3, r1, r2\n",
        "\n\nAverage Wait times (based on the timeline view):\n[0]: Executions\n",
        "[1]: Average time spent waiting in a scheduler's queue\n",
        "[2]: Average time spent waiting in a scheduler's queue while ready\n",
        "[3]: Average time elapsed from WB until retire stage\n\n",
        "      [0]    [1]    [2]    [3]\n",
        "0.     2     2.0    0.5    0.0       mul\tr1, r1, r2\n",
        "1.     2     5.0    0.0    0.0       add\tr3, r1, r2\n",
        "       2     3.5    0.3    0.0       <total>\n",
    );
    assert_eq!(text, expected);
}

/// A random processor of `units` single or multi-unit resources, a few
/// groups, random buffers and register files (for the robustness test).
fn random_processor(rng: &mut Rng, llvm: u32) -> Processor {
    let nunits = rng.range(1, 6) as usize;
    let mut resources = vec![ProcResource::default()];
    for i in 0..nunits {
        resources.push(ProcResource {
            name: format!("U{i}"),
            units: rng.range(1, 3) as u32,
            buffer_size: [-1, -1, 0, 1, 4][rng.below(5) as usize],
            ..ProcResource::default()
        });
    }
    for g in 0..rng.below(3) {
        let members: Vec<u16> = (1..=nunits as u16).filter(|_| rng.percent(60)).collect();
        if members.len() < 2 {
            continue;
        }
        resources.push(ProcResource {
            name: format!("G{g}"),
            units: members.len() as u32,
            buffer_size: [-1, -1, 0, 8][rng.below(4) as usize],
            sub_units: members,
            ..ProcResource::default()
        });
    }
    let mut p = Processor {
        name: "random".into(),
        llvm,
        issue_width: rng.range(1, 6) as u32,
        micro_op_buffer_size: [0, 4, 16, 60][rng.below(4) as usize],
        max_retire_per_cycle: rng.below(4) as u32,
        resources,
        ..Processor::default()
    };
    if rng.percent(50) {
        p.register_files.push(RegisterFile {
            name: "RF".into(),
            phys_regs: rng.range(4, 40) as u32,
            max_moves_per_cycle: rng.below(3) as u32,
            zero_moves_only: rng.percent(30),
            costs: vec![((1..=8).collect(), rng.range(1, 2) as u32, rng.percent(70))],
        });
    }
    if let Ok(masks) = super::resource_masks(&p) {
        for (r, m) in p.resources.iter_mut().zip(masks) {
            r.mask = m;
        }
    }
    p
}

/// A random descriptor over `p`'s resources.
fn random_desc(rng: &mut Rng, p: &Processor) -> Desc {
    let nres = p.resources.len() as u64;
    let mut d = Desc {
        uops: rng.below(9) as u32,
        max_latency: rng.below(13) as u32,
        begin_group: rng.percent(10),
        end_group: rng.percent(10),
        retire_ooo: rng.percent(10),
        must_issue_immediately: rng.percent(5),
        partially_overlapping_groups: rng.percent(20),
        ..Desc::default()
    };
    for _ in 0..rng.below(4) {
        let r = rng.range(1, nres - 1) as u16;
        let cycles = rng.range(1, 4) as u32;
        d.resources.push(ResourceUse {
            resource: r,
            end: cycles,
            units: rng.range(1, 2) as u32,
            reserved: p.resources[usize::from(r)].is_group() && rng.percent(20),
            ..ResourceUse::default()
        });
        d.write_proc_res.push((r, cycles, 0));
        d.used_buffers |= 1 << super::resources::state_index(p.resources[usize::from(r)].mask);
    }
    for _ in 0..rng.below(3) {
        d.writes.push(WriteDesc {
            latency: rng.below(d.max_latency as u64 + 1) as u32,
            write_resource: rng.below(3) as u32,
            ..WriteDesc::default()
        });
    }
    for u in 0..rng.below(4) as u32 {
        d.reads.push(ReadDesc {
            use_index: u,
            ..ReadDesc::default()
        });
        if rng.percent(30) {
            d.advance.push(crate::model::mc::Advance {
                use_index: u,
                write_resource: rng.below(3) as u32,
                cycles: rng.range(0, 4) as i32 - 2,
            });
        }
    }
    d
}

/// A random kernel of `p`'s descriptors.
fn random_kernel(rng: &mut Rng, p: &Processor) -> Vec<Instr> {
    (0..rng.range(1, 8))
        .map(|_| {
            let desc = rng.below(p.descs.len() as u64) as u32;
            let d = &p.descs[desc as usize];
            let reg = |rng: &mut Rng| rng.range(1, 16) as u16;
            Instr {
                desc,
                defs: (0..d.writes.len())
                    .map(|w| Def {
                        register: reg(rng),
                        write: w as u16,
                        clears_super: rng.percent(50),
                        writes_zero: rng.percent(10),
                    })
                    .collect(),
                uses: (0..d.reads.len())
                    .map(|r| Use {
                        register: reg(rng),
                        read: r as u16,
                        independent: rng.percent(10),
                    })
                    .collect(),
                optimizable_move: rng.percent(20),
                may_load: rng.percent(30),
                may_store: rng.percent(20),
                load_barrier: rng.percent(5),
                store_barrier: rng.percent(5),
                ..Instr::default()
            }
        })
        .collect()
}

#[test]
fn random_models_never_panic_and_extrapolate_exactly() {
    let mut rng = Rng::new(2311);
    for case in 0..150 {
        let llvm = if case % 2 == 0 { 22 } else { 14 };
        let mut p = random_processor(&mut rng, llvm);
        p.descs = (0..4).map(|_| random_desc(&mut rng, &p)).collect();
        let kernel = random_kernel(&mut rng, &p);
        let it = [1, 5, 60, 333][case % 4];
        let on = Options {
            iterations: it,
            timeline_iterations: 2,
            noalias: case % 3 != 0,
            ..Options::default()
        };
        let off = Options {
            extrapolate: false,
            ..on
        };
        let a = simulate(&p, &registers(), &kernel, &on);
        let b = simulate(&p, &registers(), &kernel, &off);
        match (a, b) {
            (Ok(mut a), Ok(b)) => {
                a.extrapolated_iterations = 0;
                assert_eq!(a, b, "case {case}");
                let texts: Vec<String> = (0..kernel.len()).map(|k| format!("op{k}")).collect();
                let all = ViewSet {
                    timeline: true,
                    ..ViewSet::default()
                };
                assert!(!views::region(&p, &kernel, &texts, &a, all, None).is_empty());
                assert!(!super::instruction_tables(&p, &kernel, &texts, true).is_empty());
            }
            (a, b) => assert_eq!(a.err(), b.err(), "case {case}"),
        }
    }
}
