//! The instruction model: an editable list of instructions, labels and exception-range markers.
//!
//! Arguments stay as the indices the code object uses (into `co_consts`, `co_names`, locals, ...), except
//! jumps, whose argument is a [`Label`]; the assembler turns labels back into offsets. EXTENDED_ARG
//! prefixes and inline CACHE units are not items: the assembler writes them as the arguments require.

use crate::linetable::Location;
use crate::opcode::{table, OpInfo, OpcodeTable};
use crate::version::PyVersion;

/// A position in the instruction list that jumps and exception handlers refer to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Label(pub u32);

/// An instruction's argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arg {
    /// The argument as encoded (an index for consts, names, locals; flags packed in as the version does).
    Raw(u32),
    /// A jump's target.
    Jump(Label),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instr {
    pub op: &'static OpInfo,
    pub arg: Arg,
    pub loc: Location,
    /// EXTENDED_ARG prefixes to write even where the argument needs fewer: decoding keeps the count
    /// as written, because CPython 3.8/3.9's peephole optimizer leaves `EXTENDED_ARG 0` before jumps
    /// it shortened, and their jump layout need not be the least one. The assembler writes
    /// `max(pad, needed)` prefixes; new instructions have 0.
    pub pad: u8,
    /// 3.8 only: the instruction opens a line, so `co_lnotab` has an entry for it even where the line
    /// number does not change (3.8's tracer fires a `line` event there).
    pub line_start: bool,
}

impl Instr {
    pub fn new(op: &'static OpInfo, arg: Arg, loc: Location) -> Self {
        Instr {
            op,
            arg,
            loc,
            pad: 0,
            line_start: false,
        }
    }

    /// The encoded argument for non-jumps (0 for jumps, whose argument depends on layout).
    pub fn raw_arg(&self) -> u32 {
        match self.arg {
            Arg::Raw(a) => a,
            Arg::Jump(_) => 0,
        }
    }

    pub fn target(&self) -> Option<Label> {
        match self.arg {
            Arg::Jump(l) => Some(l),
            Arg::Raw(_) => None,
        }
    }
}

/// Start of an exception-table range (3.11+): instructions up to the matching [`Item::TryEnd`] are
/// covered, and an exception jumps to `handler` with the stack cut to `depth` (plus `lasti` and the exception).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TryBegin {
    pub handler: Label,
    pub depth: u32,
    pub lasti: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    Label(Label),
    Instr(Instr),
    TryBegin(TryBegin),
    /// End of the innermost open [`TryBegin`] range (ranges do not nest: CPython's table is flat).
    TryEnd,
}

/// A code object's instructions, editable, with what is needed to assemble them again.
#[derive(Clone, Debug)]
pub struct Bytecode {
    pub version: PyVersion,
    pub first_line: i32,
    pub items: Vec<Item>,
    /// The line table the bytecode was decoded with. 3.8/3.9's peephole optimizer leaves entries for
    /// deleted code (zero-width line changes) that no encoder can reproduce; when the table written
    /// for the same lines decodes to exactly what this one does, [`crate::assemble`] keeps these bytes.
    pub source_linetable: Option<Vec<u8>>,
    next_label: u32,
}

impl Bytecode {
    pub fn new(version: PyVersion, first_line: i32) -> Self {
        Bytecode {
            version,
            first_line,
            items: Vec::new(),
            source_linetable: None,
            next_label: 0,
        }
    }

    pub fn table(&self) -> &'static OpcodeTable {
        table(self.version)
    }

    /// A label not used yet in this bytecode.
    pub fn new_label(&mut self) -> Label {
        let l = Label(self.next_label);
        self.next_label += 1;
        l
    }

    /// Make sure labels made by [`Bytecode::new_label`] do not collide with `label`.
    pub fn reserve_label(&mut self, label: Label) {
        self.next_label = self.next_label.max(label.0.saturating_add(1));
    }

    pub fn instrs(&self) -> impl Iterator<Item = &Instr> {
        self.items.iter().filter_map(|i| match i {
            Item::Instr(ins) => Some(ins),
            _ => None,
        })
    }
}
