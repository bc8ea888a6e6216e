//! Processor models as llvm-mca sees them (Definition 23.1.8 at full
//! detail), and the instructions of a kernel resolved against one.
//!
//! A [`Processor`] is one LLVM scheduling model (`SchedMachineModel`): its
//! processor resources and groups (`ProcResource`, `ProcResGroup`), the
//! register files and queues of its extra processor information, and the
//! descriptors ([`Desc`]) of every scheduling class a kernel can resolve
//! to, as `mca::InstrBuilder` builds them: micro-ops, resources with the
//! cycles they are held (ReleaseAtCycles, AcquireAtCycles), the latency of
//! each written register and the ReadAdvance of each read one.
//!
//! A [`Registers`] is the register file of an architecture as LLVM's
//! `MCRegisterInfo` describes it: names, sub- and super-registers, and the
//! register classes the register files are made of.
//!
//! An [`Instr`] is one instruction of a kernel as `mca::Instruction` starts
//! its life: a descriptor, the physical registers it writes and reads, and
//! the per-instance answers (zero idiom, dependency breaking, move
//! elimination, load/store barriers).
//!
//! These tables are generated from LLVM (`scripts/mca-models/`), never
//! written by hand; [`crate::engine::mca::pipeline`] simulates them.

pub mod build;
pub mod graph;
pub mod resolve;
pub mod tables;

/// A register of [`Registers`], by index (0 is "no register").
pub type RegId = u16;

/// An index into [`Processor::resources`] (0 is LLVM's invalid resource).
pub type ResIdx = u16;

/// An index into [`Processor::descs`].
pub type DescId = u32;

/// The registers of an architecture (`MCRegisterInfo`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Registers {
    /// Indexed by [`RegId`]; entry 0 is the empty name.
    pub names: Vec<String>,
    /// Every sub-register of each register (transitively), as LLVM's
    /// `subregs()` lists them.
    pub subregs: Vec<Vec<RegId>>,
    /// Every super-register of each register, as `superregs()` lists them.
    pub superregs: Vec<Vec<RegId>>,
    /// Registers that always read the same value (`MCRegisterInfo::isConstant`:
    /// `xzr`, `wzr`); LLVM 22 only.
    pub constant: Vec<bool>,
    /// Registers that are artificial (`MCRegisterInfo::isArtificial`: x86's
    /// `HAX`, AArch64's `W0_HI`), which LLVM 22's register file never
    /// renames; empty means none. Indexed by [`RegId`].
    pub artificial: Vec<bool>,
}

impl Registers {
    /// The register called `name` (LLVM's upper-case name, `RAX`, `X8`).
    pub fn find(&self, name: &str) -> Option<RegId> {
        self.names
            .iter()
            .position(|n| n == name)
            .map(|i| i as RegId)
    }
}

/// One processor resource or group (`MCProcResourceDesc`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ProcResource {
    /// LLVM's name (`SKLPort0`, `SKLPort01`).
    pub name: String,
    /// Units of this kind (a group: how many members).
    pub units: u32,
    /// The resource this one is a sub-unit of, or 0.
    pub super_idx: ResIdx,
    /// Scheduler-queue entries in front of it: −1 unified with the
    /// micro-op buffer, 0 unbuffered (in order), 1 a reservation station
    /// issuing at once, more a queue of that size.
    pub buffer_size: i32,
    /// The members of a group (indices of other resources), empty for a
    /// unit.
    pub sub_units: Vec<ResIdx>,
    /// llvm-mca's resource mask (`computeProcResourceMasks`): one bit per
    /// unit, a group has its own bit and its members' bits.
    pub mask: u64,
}

impl ProcResource {
    /// Whether this is a group of other resources.
    pub fn is_group(&self) -> bool {
        !self.sub_units.is_empty()
    }
}

/// A register file of the extra processor information (`RegisterFile<…>`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RegisterFile {
    /// LLVM's name.
    pub name: String,
    /// Physical registers available for renaming (0: unbounded).
    pub phys_regs: u32,
    /// Moves eliminated per cycle at most (0: no limit).
    pub max_moves_per_cycle: u32,
    /// Only moves from known zero registers are eliminated.
    pub zero_moves_only: bool,
    /// The registers it renames, by class: `(registers, cost, allow move
    /// elimination)`.
    pub costs: Vec<(Vec<RegId>, u32, bool)>,
}

/// One resource an instruction uses (`InstrDesc::Resources`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ResourceUse {
    /// The resource (a unit or a group).
    pub resource: ResIdx,
    /// The cycle segment `[begin, end)` it is held, counted from issue:
    /// `begin` is AcquireAtCycle, `end` ReleaseAtCycle as
    /// `InstrBuilder` adjusts them.
    pub begin: u32,
    /// See `begin`.
    pub end: u32,
    /// Units of a group used at once.
    pub units: u32,
    /// The resource is reserved (a `BufferSize = 0` resource used for more
    /// than one cycle, or `MustIssueImmediately`).
    pub reserved: bool,
}

/// A register write of a descriptor (`WriteDescriptor`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct WriteDesc {
    /// The MCInst operand it writes; negative for an implicit write (`!i`
    /// is its place among the implicit definitions).
    pub op_index: i32,
    /// Cycles from issue until the value is written back.
    pub latency: u32,
    /// The implicit register written (0 for an explicit operand).
    pub register: RegId,
    /// The `WriteResourceID` that ReadAdvance entries are matched against.
    pub write_resource: u32,
    /// An optional definition that may name no register.
    pub optional: bool,
}

/// A register read of a descriptor (`ReadDescriptor`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ReadDesc {
    /// The MCInst operand it reads; negative for an implicit read.
    pub op_index: i32,
    /// The use index ReadAdvance entries name.
    pub use_index: u32,
    /// The implicit register read (0 for an explicit operand).
    pub register: RegId,
}

/// A ReadAdvance entry (`MCReadAdvanceEntry`): a read with use index
/// `use_index` of a value written with `write_resource` (0: any) is ready
/// `cycles` early.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Advance {
    /// The use index.
    pub use_index: u32,
    /// The writer's `WriteResourceID`, 0 for every writer.
    pub write_resource: u32,
    /// Cycles subtracted from the writer's latency (may be negative).
    pub cycles: i32,
}

/// An instruction descriptor (`mca::InstrDesc` with the scheduling class
/// data llvm-mca reads beside it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Desc {
    /// The LLVM scheduling class it was resolved to.
    pub sched_class: u32,
    /// Micro-ops.
    pub uops: u32,
    /// The largest write latency (llvm-mca's "Latency").
    pub max_latency: u32,
    /// Resources used, in `InstrBuilder`'s order.
    pub resources: Vec<ResourceUse>,
    /// Buffered resources it takes an entry of, as a mask.
    pub used_buffers: u64,
    /// Units it uses (directly or through a group), as a mask.
    pub used_units: u64,
    /// Groups it uses, as a mask.
    pub used_groups: u64,
    /// Issued as it dispatches (no resource, no latency).
    pub must_issue_immediately: bool,
    /// Two of its groups overlap partially (LLVM 22).
    pub partially_overlapping_groups: bool,
    /// Register writes: explicit ones first, implicit at the end.
    pub writes: Vec<WriteDesc>,
    /// Register reads: explicit ones first, implicit at the end.
    pub reads: Vec<ReadDesc>,
    /// The ReadAdvance entries of its class, ordered by use index.
    pub advance: Vec<Advance>,
    /// `BeginGroup`, `EndGroup`, `RetireOOO` of the class.
    pub begin_group: bool,
    /// See `begin_group`.
    pub end_group: bool,
    /// See `begin_group`.
    pub retire_ooo: bool,
    /// The class's raw `WriteProcRes` entries: resource, ReleaseAtCycle,
    /// AcquireAtCycle (the instruction-info view prints them).
    pub write_proc_res: Vec<(ResIdx, u32, u32)>,
    /// The class's write latency entries (`MCWriteLatencyEntry`: cycles,
    /// `WriteResourceID`), from which the instruction-info view computes
    /// its Latency (`computeInstrLatency`, which differs from
    /// `max_latency` for calls) and Bypass Latency. Empty: unknown, the
    /// views then use `max_latency` and `writes`.
    pub write_latencies: Vec<(i32, u32)>,
}

impl Desc {
    /// The ReadAdvance of use `use_index` for a value written with
    /// `write_resource` (`MCSubtargetInfo::getReadAdvanceCycles`): the
    /// first entry of the use whose writer is 0 or matches.
    pub fn read_advance(&self, use_index: u32, write_resource: u32) -> i32 {
        for a in &self.advance {
            if a.use_index < use_index {
                continue;
            }
            if a.use_index > use_index {
                break;
            }
            if a.write_resource == 0 || a.write_resource == write_resource {
                return a.cycles;
            }
        }
        0
    }

    /// Whether it has no latency and uses no resource (`isZeroLatency`).
    pub fn is_zero_latency(&self) -> bool {
        self.max_latency == 0 && self.resources.is_empty()
    }
}

/// A processor model (`MCSchedModel` and its extra processor information).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Processor {
    /// The name `-mcpu` takes (`skylake`).
    pub name: String,
    /// The LLVM release the tables come from (14 or 22).
    pub llvm: u32,
    /// Micro-ops dispatched per cycle (`IssueWidth`).
    pub issue_width: u32,
    /// `MicroOpBufferSize` (0: an in-order processor).
    pub micro_op_buffer_size: u32,
    /// `LoadLatency`.
    pub load_latency: u32,
    /// `HighLatency`.
    pub high_latency: u32,
    /// LLVM's processor id, which zero-idiom tables are keyed by.
    pub processor_id: u32,
    /// Index 0 is LLVM's invalid resource.
    pub resources: Vec<ProcResource>,
    /// `ReorderBufferSize` of the extra information (0: the micro-op
    /// buffer size).
    pub reorder_buffer_size: u32,
    /// Instructions retired per cycle (0: no limit).
    pub max_retire_per_cycle: u32,
    /// The resource that is the load queue, or 0.
    pub load_queue: ResIdx,
    /// The resource that is the store queue, or 0.
    pub store_queue: ResIdx,
    /// Register files beyond the default one (which renames everything,
    /// without limit).
    pub register_files: Vec<RegisterFile>,
    /// Every descriptor a kernel can use.
    pub descs: Vec<Desc>,
}

/// A register write of one instruction (`WriteState` at creation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Def {
    /// The register written.
    pub register: RegId,
    /// Its descriptor, an index into [`Desc::writes`].
    pub write: u16,
    /// The write clears the upper part of its super-registers (a 32-bit
    /// write on x86-64, a VEX-encoded one of an `xmm`).
    pub clears_super: bool,
    /// The instruction is a zero idiom: the value written is zero.
    pub writes_zero: bool,
}

/// A register read of one instruction (`ReadState` at creation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Use {
    /// The register read.
    pub register: RegId,
    /// Its descriptor, an index into [`Desc::reads`].
    pub read: u16,
    /// A dependency-breaking instruction does not wait for this value.
    pub independent: bool,
}

/// One instruction of a kernel, resolved against a [`Processor`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Instr {
    /// Its descriptor in [`Processor::descs`].
    pub desc: DescId,
    /// Registers written, in descriptor order (optional definitions that
    /// name no register left out).
    pub defs: Vec<Def>,
    /// Registers read, in descriptor order.
    pub uses: Vec<Use>,
    /// `MCInstrAnalysis::isOptimizableRegisterMove`.
    pub optimizable_move: bool,
    /// May read memory.
    pub may_load: bool,
    /// May write memory.
    pub may_store: bool,
    /// Has unmodelled side effects.
    pub side_effects: bool,
    /// A load barrier (`InstrPostProcess`).
    pub load_barrier: bool,
    /// A store barrier.
    pub store_barrier: bool,
    /// The LLVM opcode name (`VFMADD231PDYm`), which
    /// `--instruction-tables=full` prints.
    pub opcode: String,
}
