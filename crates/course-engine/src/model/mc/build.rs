//! llvm-mca's `InstrBuilder` for one code region: the descriptors of the
//! region's instructions and the instructions themselves.
//!
//! A descriptor's resources and latencies come from the tables (the
//! scheduling class); its register writes and reads are laid out here from
//! the LLVM instruction's operands (`populateWrites`, `populateReads`), and
//! cached as llvm-mca caches them: per opcode and class for a plain class,
//! per distinct MCInst for a variant class or a variadic instruction. The
//! cache matters: from LLVM 22 on, an operand that names a constant
//! register (`xzr`) gets no read or write in the descriptor built for it,
//! and a later instruction of the same opcode reuses that descriptor.

use std::collections::HashMap;

use super::resolve::{Resolution, Value};
use super::tables::{Forms, Model, Opcode};
use super::{Def, Desc, Instr, Processor, ReadDesc, RegId, Use, WriteDesc};

/// What `hashMCInst` keys a variant class's descriptor by: the opcode, the
/// kind and register of each operand, and the class descriptor.
type VariantKey = (u32, Vec<(u8, RegId)>, u32);

/// The descriptors and instructions of one region.
pub struct Builder<'a> {
    forms: &'a Forms,
    model: &'a Model,
    descs: Vec<Desc>,
    /// (opcode, class descriptor) of a plain class → descriptor.
    plain: HashMap<(u32, u32), u32>,
    /// (opcode, registers, class descriptor) of a variant one → descriptor
    /// (`hashMCInst` looks at operand kinds and registers, not values).
    variant: HashMap<VariantKey, u32>,
    /// Whether a descriptor of a call was built (llvm-mca's first-call
    /// warning, once per region).
    pub saw_call: bool,
    /// Whether one of a return was.
    pub saw_return: bool,
}

impl<'a> Builder<'a> {
    /// An empty region on `model` (of release `forms`).
    pub fn new(forms: &'a Forms, model: &'a Model) -> Builder<'a> {
        Builder {
            forms,
            model,
            descs: Vec::new(),
            plain: HashMap::new(),
            variant: HashMap::new(),
            saw_call: false,
            saw_return: false,
        }
    }

    /// The instruction llvm-mca creates for `r` (None only if the tables
    /// are inconsistent).
    pub fn instr(&mut self, r: &Resolution) -> Option<Instr> {
        let o = self.model.outcomes.get(r.outcome as usize)?;
        let op = self.forms.opcodes.get(r.opcode as usize)?;
        let variadic = op.variadic;
        let id = if r.variant || variadic {
            let shape = r
                .values
                .iter()
                .map(|v| match v {
                    Value::Reg(x) => (0, *x),
                    Value::Imm(_) => (1, 0),
                    Value::Other => (2, 0),
                })
                .collect();
            let key = (r.opcode, shape, o.desc);
            match self.variant.get(&key) {
                Some(&d) => d,
                None => {
                    let d = self.make(op, o.desc, &r.values)?;
                    self.variant.insert(key, d);
                    d
                }
            }
        } else {
            match self.plain.get(&(r.opcode, o.desc)) {
                Some(&d) => d,
                None => {
                    let d = self.make(op, o.desc, &r.values)?;
                    self.plain.insert((r.opcode, o.desc), d);
                    d
                }
            }
        };
        let d = &self.descs[id as usize];
        Some(create(d, id, r, o, self.constants(), &op.name))
    }

    /// The region's processor: the model with the descriptors built.
    pub fn processor(self) -> Processor {
        // Everything of the model but its class descriptors (a thousand or
        // more), which the region's own replace.
        let m = &self.model.processor;
        Processor {
            name: m.name.clone(),
            llvm: m.llvm,
            issue_width: m.issue_width,
            micro_op_buffer_size: m.micro_op_buffer_size,
            load_latency: m.load_latency,
            high_latency: m.high_latency,
            processor_id: m.processor_id,
            resources: m.resources.clone(),
            reorder_buffer_size: m.reorder_buffer_size,
            max_retire_per_cycle: m.max_retire_per_cycle,
            load_queue: m.load_queue,
            store_queue: m.store_queue,
            register_files: m.register_files.clone(),
            descs: self.descs,
        }
    }

    /// Which registers are constant (`xzr`); none before LLVM 22.
    fn constants(&self) -> &'a [bool] {
        if self.forms.llvm >= 22 {
            &self.forms.registers.constant
        } else {
            &[]
        }
    }

    fn make(&mut self, op: &Opcode, class_desc: u32, values: &[Value]) -> Option<u32> {
        let mut d = self.model.processor.descs.get(class_desc as usize)?.clone();
        self.saw_call |= op.call;
        self.saw_return |= op.ret;
        let constant = self.constants();
        d.writes = writes(&d, op, values, constant);
        d.reads = reads(op, values, constant);
        self.descs.push(d);
        Some(self.descs.len() as u32 - 1)
    }
}

fn is_const(constant: &[bool], r: RegId) -> bool {
    constant.get(r as usize).copied().unwrap_or(false)
}

/// The latency and write resource of definition `k` of a class.
fn latency(d: &Desc, k: usize) -> (u32, u32) {
    match d.write_latencies.get(k) {
        Some(&(c, w)) => (if c < 0 { d.max_latency } else { c as u32 }, w),
        None => (d.max_latency, 0),
    }
}

/// `InstrBuilder::populateWrites`.
fn writes(d: &Desc, op: &Opcode, values: &[Value], constant: &[bool]) -> Vec<WriteDesc> {
    let explicit = op.defs as usize;
    let implicit = op.implicit_defs.len();
    let optional = !op.optional_defs.is_empty();
    let variadic_ops = values.len().saturating_sub(op.operands as usize);
    let mut w =
        vec![WriteDesc::default(); explicit + implicit + usize::from(optional) + variadic_ops];
    let mut current = 0usize;
    let mut optional_index = op.operands.saturating_sub(1) as i32;
    let mut i = 0usize;
    while i < values.len() && current < explicit {
        if let Value::Reg(r) = values[i] {
            if op.optional_defs.contains(&(current as u32)) {
                optional_index = current as i32;
                current += 1;
            } else if is_const(constant, r) {
                current += 1;
            } else {
                let (lat, res) = latency(d, current);
                w[current] = WriteDesc {
                    op_index: i as i32,
                    latency: lat,
                    register: 0,
                    write_resource: res,
                    optional: false,
                };
                current += 1;
            }
        }
        i += 1;
    }
    for (k, &reg) in op.implicit_defs.iter().enumerate() {
        let index = explicit + k;
        let (lat, res) = latency(d, index);
        w[index] = WriteDesc {
            op_index: !(k as i32),
            latency: lat,
            register: reg,
            write_resource: res,
            optional: false,
        };
    }
    if optional {
        w[explicit + implicit] = WriteDesc {
            op_index: optional_index,
            latency: d.max_latency,
            register: 0,
            write_resource: 0,
            optional: true,
        };
    }
    if variadic_ops == 0 {
        return w;
    }
    let mut current = explicit + implicit + usize::from(optional);
    if op.variadic_defs {
        for (k, v) in values.iter().enumerate().skip(op.operands as usize) {
            if let Value::Reg(r) = v
                && !is_const(constant, *r)
            {
                w[current] = WriteDesc {
                    op_index: k as i32,
                    latency: d.max_latency,
                    ..WriteDesc::default()
                };
                current += 1;
            }
        }
    }
    w.truncate(current);
    w
}

/// `InstrBuilder::populateReads`.
fn reads(op: &Opcode, values: &[Value], constant: &[bool]) -> Vec<ReadDesc> {
    let mut explicit = op.operands.saturating_sub(op.defs) as usize;
    if !op.optional_defs.is_empty() {
        explicit = explicit.saturating_sub(1);
    }
    let mut out = Vec::new();
    for k in 0..explicit {
        let index = op.defs as usize + k;
        if let Some(Value::Reg(r)) = values.get(index)
            && !is_const(constant, *r)
        {
            out.push(ReadDesc {
                op_index: index as i32,
                use_index: k as u32,
                register: 0,
            });
        }
    }
    for (k, &reg) in op.implicit_uses.iter().enumerate() {
        out.push(ReadDesc {
            op_index: !(k as i32),
            use_index: (explicit + k) as u32,
            register: reg,
        });
    }
    if !op.variadic_defs {
        let base = explicit + op.implicit_uses.len();
        for (k, v) in values.iter().enumerate().skip(op.operands as usize) {
            if matches!(v, Value::Reg(_)) {
                out.push(ReadDesc {
                    op_index: k as i32,
                    use_index: (base + k - op.operands as usize) as u32,
                    register: 0,
                });
            }
        }
    }
    out
}

/// `InstrBuilder::createInstruction`: the descriptor's reads and writes
/// bound to the instruction's registers.
fn create(
    d: &Desc,
    id: u32,
    r: &Resolution,
    o: &super::tables::Outcome,
    constant: &[bool],
    name: &str,
) -> Instr {
    let reg_at = |i: i32| match r.values.get(i as usize) {
        Some(Value::Reg(x)) => Some(*x),
        _ => None,
    };
    let mask_zero = o.mask.iter().all(|b| !b);
    let mut uses = Vec::with_capacity(d.reads.len());
    for (k, rd) in d.reads.iter().enumerate() {
        let implicit = rd.op_index < 0;
        let reg = if implicit {
            rd.register
        } else {
            match reg_at(rd.op_index) {
                Some(x) => x,
                None => continue,
            }
        };
        if reg == 0 {
            continue;
        }
        let independent = o.dep
            && if mask_zero {
                !implicit
            } else {
                o.mask.get(rd.use_index as usize).copied().unwrap_or(false)
            };
        uses.push(Use {
            register: reg,
            read: k as u16,
            independent,
        });
    }
    let mut defs = Vec::with_capacity(d.writes.len());
    for (k, wd) in d.writes.iter().enumerate() {
        let reg = if wd.op_index < 0 {
            wd.register
        } else {
            reg_at(wd.op_index).unwrap_or(0)
        };
        if (wd.optional && reg == 0) || is_const(constant, reg) || o.killed.contains(&(k as u16)) {
            continue;
        }
        defs.push(Def {
            register: reg,
            write: k as u16,
            clears_super: o.clears.get(k).copied().unwrap_or(false),
            writes_zero: o.zero,
        });
    }
    let [
        may_load,
        may_store,
        side_effects,
        load_barrier,
        store_barrier,
    ] = o.flags;
    Instr {
        desc: id,
        defs,
        uses,
        optimizable_move: o.optimizable_move,
        may_load,
        may_store,
        side_effects,
        load_barrier,
        store_barrier,
        opcode: name.to_string(),
    }
}
