//! Symbolic execution of instructions into expressions and statements: a stack of AST expressions,
//! one opcode at a time. Control flow is the structurer's business (`structure.rs`); this module sees
//! straight-line runs and reports the condition a block ends with.

use crate::ast::{
    Alias, CmpOp, Constant, Conversion, Expr, ExprContext, Keyword, Operator, Stmt, UnaryOp,
};
use crate::error::DecompileError;
use crate::input::{CodeInput, Const};
use framejit_bytecode::opcode::ArgKind;
use framejit_bytecode::opcodes::ids;
use framejit_bytecode::{Arg, Instr, PyVersion};

mod annotations;
mod except_exit;
pub mod except_star;
mod late_return;
mod py312;
mod py38;
mod spill;
mod tstrings;
mod type_params;
pub use annotations::{drop_conditional_set, first_statement, fold as fold_annotations_314};
pub(crate) use spill::cell_name;

pub mod awaits;

/// A value on the symbolic stack.
#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    Expr(Expr),
    /// The NULL that 3.11+ push before a callable (or that `LOAD_GLOBAL`/`LOAD_ATTR` push with it).
    Null,
    /// 3.11-3.12 `KW_NAMES`: the keyword names of the next call, held until the call.
    KwNames(Vec<String>),
    /// What IMPORT_NAME pushed: the module, its `from` names (`None` for a plain import) and level.
    Module {
        name: String,
        fromlist: Option<Vec<String>>,
        level: u32,
    },
    /// What IMPORT_FROM pushed: one name of a module (or a submodule, for `import a.b as c`).
    /// `via`: for `import a.b.c as d`, which reads `b` of `a.b.c`, then `c` of `b`, the module's
    /// whole name and how many of its parts after the first are read so far.
    Imported {
        name: String,
        via: Option<(String, usize)>,
    },
    /// Slot `slot` of the unpacking `unpack` (UNPACK_SEQUENCE / UNPACK_EX), waiting for its target.
    Unpacked {
        unpack: usize,
        slot: usize,
    },
    /// A nested code object, `co_consts[i]`.
    Code(usize),
    /// A function being made (MAKE_FUNCTION and what decorates it), until it is stored or used.
    Function(Box<FuncVal>),
    /// `__build_class__` (LOAD_BUILD_CLASS), until it is called.
    BuildClass,
    /// An iterator (GET_ITER) over the expression: a for loop's, popped by `break` without a statement.
    Iter(Expr),
    /// The `__exit__` that BEFORE_WITH pushed under the `__enter__()` result.
    WithExit,
    /// A class being made (the call of `__build_class__`, and what decorates it), until it is stored.
    Class(Box<ClassVal>),
    /// The middle operand of a chained comparison (`a < b < c`), kept under the first comparison for
    /// the next one (SWAP 2; COPY 2, ≤3.10 DUP_TOP; ROT_THREE). Used, it reads as `CHAIN_MID(b)`.
    Chain(Expr),
    /// 3.12+ LOAD_FAST_AND_CLEAR: the saved value of a local an inlined comprehension binds, stored
    /// back into that local when the comprehension ends.
    Saved(String),
    /// 3.12+ LOAD_LOCALS: the namespace a class body reads a free variable through.
    Locals,
    /// What an await / yield-from loop is sending into (GET_AWAITABLE, GET_YIELD_FROM_ITER,
    /// GET_ANEXT): the expression the whole loop stands for.
    Send(Expr),
    /// The call of an async comprehension's function (3.8-3.11), which the compiler awaits.
    AsyncComp(Expr),
    /// The result of an in-place operator (`INPLACE_ADD`, `BINARY_OP +=`): it reads as source only
    /// when stored back into its left operand (`a += b`); `a + b` would not call `__iadd__`.
    /// (Boxed: two expressions inline made every stack value twice the size of an `Expr`.)
    InPlace(Box<InPlaceVal>),
    /// 3.12+ a `def` or `class` with type parameters, made by its type-parameter scope
    /// (`exprs/type_params.rs`), and what decorates it, until it is stored.
    Def(Box<Stmt>),
}

/// [`Val::InPlace`]: `left op= right` until it is stored back into `left`.
#[derive(Clone, Debug, PartialEq)]
pub struct InPlaceVal {
    pub left: Expr,
    pub op: Operator,
    pub right: Expr,
}

/// A class statement in the making.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassVal {
    /// Index of the class body's code object in `co_consts`.
    pub code: usize,
    pub name: String,
    pub bases: Vec<Expr>,
    pub keywords: Vec<Keyword>,
    /// Outermost first.
    pub decorators: Vec<Expr>,
}

/// What MAKE_FUNCTION made: the code object and the function's attributes, plus decorators applied.
#[derive(Clone, Debug, PartialEq)]
pub struct FuncVal {
    /// Index of the code object in `co_consts`.
    pub code: usize,
    pub defaults: Vec<Expr>,
    pub kwdefaults: Vec<(String, Expr)>,
    pub annotations: Vec<(String, Expr)>,
    /// Outermost first.
    pub decorators: Vec<Expr>,
}

/// An unpacking assignment being collected, one target per store.
#[derive(Clone, Debug)]
struct Unpack {
    /// The value unpacked, or the slot of an enclosing unpacking (`a, (b, c) = ...`).
    source: Result<Expr, (usize, usize)>,
    targets: Vec<Option<Expr>>,
    /// UNPACK_EX: the index of the starred target.
    star: Option<usize>,
}

/// The target of an unpacked value popped instead of stored (a dropped store, see `fill_unpack`):
/// no name can be spelt this way.
fn dead_store() -> Expr {
    Expr::Name {
        id: "<dropped store>".to_string(),
        ctx: ExprContext::Store,
    }
}

/// How a block ends, for the structurer.
#[derive(Clone, Debug, PartialEq)]
pub enum Exit {
    /// Falls through or jumps unconditionally.
    Flow,
    /// A conditional jump: taken when `test` is `jump_if`.
    Branch {
        test: Expr,
        jump_if: bool,
        /// The jump keeps the tested value on the stack (≤3.11 JUMP_IF_TRUE_OR_POP / _FALSE_OR_POP).
        keep: bool,
        /// The test was a copy (COPY 1) of the value left on top of the stack: 3.12+ `and`/`or`.
        copy: bool,
    },
    /// `FOR_ITER`: the next item goes to the loop body; the jump leaves the loop.
    ForIter { iter: Expr },
    /// Left the code object (return / raise): nothing follows.
    Exit,
}

/// The state carried through one block.
pub struct Sim<'a> {
    pub code: &'a CodeInput,
    pub stack: Vec<Val>,
    pub out: Vec<Stmt>,
    /// The operator of an in-place BINARY_OP whose result has not been stored yet.
    /// Unpackings being collected.
    unpacks: Vec<Unpack>,
    /// 3.11+ `import a.b as c` leaves its module for a POP_TOP that is part of the statement.
    pending_pop_module: bool,
    /// The previous instruction was COPY 1 (TO_BOOL between them does not count).
    last_was_copy: bool,
    /// Copies (COPY) of expressions that must not be evaluated twice, not yet merged into one
    /// statement (`a = b = f()`, `f().x += 1`); the block is refused if any is left over.
    impure_copies: Vec<Expr>,
    /// Copies of a name or constant on top of the stack (COPY 1 / DUP_TOP) not used yet: the
    /// second store of one joins the assignment of the first (`self.a = self.b = None`).
    pure_copies: Vec<Expr>,
    /// `from MODULE import ...` being collected: the module, level, and the names so far.
    from_import: Option<(String, u32, Vec<Alias>)>,
    /// The name of the instruction after the one being run (set by the structurer), for ≤3.10's
    /// `ROT_FOUR; POP_EXCEPT`.
    pub next_op: Option<&'static str>,
    /// ≤3.10 ROT_FOUR before POP_EXCEPT: the value returned was computed inside the handler.
    value_under_except: bool,
    /// 3.11+: where the saved exceptions of the handlers being run would sit on the symbolic stack
    /// (its length there), innermost last; set by the structurer (`exprs/except_exit.rs`).
    pub saved_exc: Vec<usize>,
    /// The lowest stack depth the block has reached between instructions (at first, the values it was
    /// entered with): values above it belong to the block's own statements.
    entry_len: usize,
    /// The stack's first values that were evaluated before the statements being read and are used
    /// only after them, where they were computed (≤3.10: a `return` value waiting under a finally
    /// body's copy): a store of a name they read does not change them. Set by the structurer.
    pub settled: usize,
    /// SWAP / ROT_* moves since the stack last held only the entry values, as (position, depth, kind):
    /// they tell the order a tuple assignment's values were evaluated in.
    moves: Vec<(usize, usize, Move)>,
    /// A tuple assignment being collected (`a, b = x, y` stores its values one by one).
    group: Option<Group>,
    /// The previous instruction's name and argument (chained comparisons are two-instruction idioms).
    prev: (&'static str, u32),
    /// The first store of a 3.13+ STORE_FAST_STORE_FAST is running: another store follows.
    pair_store: bool,
    /// Spill mode: values below this depth belong to the structurer (a statement's base, which
    /// later blocks start from again) and are never put into temporaries here.
    pub spill_floor: usize,
    /// The stack's length after this block popped a loop's iterator (POP_TOP / POP_ITER of it):
    /// a value pushed above it was computed after the loop was left (`return_after_pop`).
    iter_popped: Option<usize>,
    /// A value returned after the pop ([`Sim::late_return`]).
    late_return: bool,
    /// The first pop of a loop's iterator in this block: how many statements were made before it,
    /// the stack's length after it, and what the loop iterates (`exprs/late_return.rs`).
    first_iter_pop: Option<(usize, usize, Expr)>,
    /// Code after that pop that ends the block by `return` ([`Sim::late_tail`]).
    late_tail: Option<late_return::LateTail>,
}

#[derive(Clone, Copy, Debug)]
enum Move {
    /// SWAP n / ROT_TWO: exchange the top with the value n-1 below it.
    Swap,
    /// ROT_THREE / ROT_FOUR: the top moves n-1 places down.
    Rot,
}

/// `t1, t2 = v1, v2`: the values (in the order they were evaluated) and the stack position each
/// occupies, waiting for one store each.
#[derive(Clone, Debug)]
struct Group {
    /// Stack position of the lowest value of the group.
    base: usize,
    /// Per stack position above `base`: its value and its evaluation rank.
    values: Vec<(Expr, usize)>,
    targets: Vec<Option<Expr>>,
}

/// The compiler folds a set display of constants into a frozenset constant where only membership
/// or iteration is asked of it (`x in {1, 2}`, `for x in {1, 2}`): there it is written as the display
/// again, which compiles back to the same constant. (An empty frozenset has no display.)
fn set_display(e: Expr) -> Expr {
    match e {
        Expr::Constant {
            value: Constant::FrozenSet(items),
            ..
        } if !items.is_empty() => Expr::Set {
            elts: items.into_iter().map(Expr::constant).collect(),
        },
        other => other,
    }
}

fn cmp_op(name: &str) -> Option<CmpOp> {
    Some(match name {
        "<" => CmpOp::Lt,
        "<=" => CmpOp::LtE,
        "==" => CmpOp::Eq,
        "!=" => CmpOp::NotEq,
        ">" => CmpOp::Gt,
        ">=" => CmpOp::GtE,
        // 3.8's COMPARE_OP also covers what 3.9 moved to IS_OP / CONTAINS_OP
        "in" => CmpOp::In,
        "not in" => CmpOp::NotIn,
        "is" => CmpOp::Is,
        "is not" => CmpOp::IsNot,
        _ => return None,
    })
}

/// `BINARY_OP`'s operator by the text `dis` shows (`+`, `+=`, ...), and whether it is in place.
fn bin_op(text: &str) -> Option<(Operator, bool)> {
    let inplace = text.ends_with('=') && text != "==";
    let op = match text.trim_end_matches('=') {
        "+" => Operator::Add,
        "-" => Operator::Sub,
        "*" => Operator::Mult,
        "@" => Operator::MatMult,
        "/" => Operator::Div,
        "%" => Operator::Mod,
        "**" => Operator::Pow,
        "<<" => Operator::LShift,
        ">>" => Operator::RShift,
        "|" => Operator::BitOr,
        "^" => Operator::BitXor,
        "&" => Operator::BitAnd,
        "//" => Operator::FloorDiv,
        _ => return None,
    };
    Some((op, inplace))
}

/// ≤3.10: the binary opcodes, by name.
fn legacy_bin_op(name: &str) -> Option<(Operator, bool)> {
    let (inplace, rest) = match name.strip_prefix("INPLACE_") {
        Some(r) => (true, r),
        None => (false, name.strip_prefix("BINARY_")?),
    };
    let op = match rest {
        "ADD" => Operator::Add,
        "SUBTRACT" => Operator::Sub,
        "MULTIPLY" => Operator::Mult,
        "MATRIX_MULTIPLY" => Operator::MatMult,
        "TRUE_DIVIDE" => Operator::Div,
        "MODULO" => Operator::Mod,
        "POWER" => Operator::Pow,
        "LSHIFT" => Operator::LShift,
        "RSHIFT" => Operator::RShift,
        "OR" => Operator::BitOr,
        "XOR" => Operator::BitXor,
        "AND" => Operator::BitAnd,
        "FLOOR_DIVIDE" => Operator::FloorDiv,
        _ => return None,
    };
    Some((op, inplace))
}

pub fn constant_expr(c: &Const) -> Expr {
    match c {
        Const::Value(v) => Expr::constant(v.clone()),
        Const::Code(code) => Expr::constant(Constant::Opaque(
            code.reference
                .clone()
                .unwrap_or_else(|| format!("<code object {}>", code.name)),
        )),
        Const::Slice(parts) => {
            let part = |c: &Constant| match c {
                Constant::None => None,
                other => Some(Box::new(Expr::constant(other.clone()))),
            };
            Expr::Slice {
                lower: part(&parts[0]),
                upper: part(&parts[1]),
                step: part(&parts[2]),
            }
        }
    }
}

impl<'a> Sim<'a> {
    pub fn new(code: &'a CodeInput, stack: Vec<Val>) -> Self {
        Sim {
            code,
            stack,
            out: Vec::new(),
            unpacks: Vec::new(),
            from_import: None,
            pending_pop_module: false,
            impure_copies: Vec::new(),
            pure_copies: Vec::new(),
            last_was_copy: false,
            entry_len: 0,
            settled: 0,
            moves: Vec::new(),
            group: None,
            prev: ("", 0),
            pair_store: false,
            next_op: None,
            value_under_except: false,
            spill_floor: 0,
            saved_exc: Vec::new(),
            iter_popped: None,
            late_return: false,
            first_iter_pop: None,
            late_tail: None,
        }
        .entered()
    }

    fn entered(mut self) -> Self {
        self.entry_len = self.stack.len();
        self.spill_floor = self.stack.len();
        self
    }

    fn err(&self, ins: &Instr, message: impl Into<String>) -> DecompileError {
        DecompileError::new(self.code, message).op(ins.op.name)
    }

    fn pop(&mut self, ins: &Instr) -> Result<Val, DecompileError> {
        self.stack
            .pop()
            .ok_or_else(|| self.err(ins, "stack underflow"))
    }

    fn pop_expr(&mut self, ins: &Instr) -> Result<Expr, DecompileError> {
        match self.pop(ins)? {
            Val::Expr(e) => Ok(e),
            // a lambda used as a value: an element of a tuple, list, dict...
            f @ Val::Function(_) => self.expr_of(ins, f),
            Val::Chain(m) => Ok(chain_mid(m)),
            other => self.expr_of(ins, other),
        }
    }

    /// Is `v` a function made from a lambda's code (with no decorators)?
    fn is_lambda(&self, v: &Val) -> bool {
        matches!(v, Val::Function(f) if f.decorators.is_empty()
            && matches!(self.code.consts.get(f.code), Some(Const::Code(c)) if c.name == "<lambda>"))
    }

    fn pop_n(&mut self, ins: &Instr, n: usize) -> Result<Vec<Expr>, DecompileError> {
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            out.push(self.pop_expr(ins)?);
        }
        out.reverse();
        Ok(out)
    }

    fn push(&mut self, e: Expr) {
        self.stack.push(Val::Expr(e));
    }

    /// Between two instructions (or the two halves of a 3.13+ pair): the block's own statements
    /// start above the lowest depth it has reached.
    fn statement_boundary(&mut self) {
        if self.stack.len() <= self.entry_len && self.group.is_none() {
            self.entry_len = self.stack.len();
            self.moves.clear();
        }
    }

    /// Between statements: the stack is no higher than the lowest depth the block has reached
    /// (no value of a statement waits on it) and no tuple assignment is being collected.
    pub fn between_statements(&self) -> bool {
        self.stack.len() <= self.entry_len && self.group.is_none()
    }

    /// A binary operator's result; an in-place one stays apart until it is stored back.
    fn push_bin_op(&mut self, left: Expr, op: Operator, right: Expr, inplace: bool) {
        self.stack.push(if inplace {
            Val::InPlace(Box::new(InPlaceVal { left, op, right }))
        } else {
            Val::Expr(Expr::BinOp {
                left: Box::new(left),
                op,
                right: Box::new(right),
            })
        });
    }

    fn name(&self, ins: &Instr, i: u32) -> Result<String, DecompileError> {
        self.code
            .names
            .get(i as usize)
            .cloned()
            .ok_or_else(|| self.err(ins, format!("name index {i} out of range")))
    }

    fn local(&self, ins: &Instr, i: u32) -> Result<String, DecompileError> {
        self.code
            .fast_name(i as usize)
            .map(|s| s.to_string())
            .ok_or_else(|| self.err(ins, format!("local index {i} out of range")))
    }

    fn deref(&self, ins: &Instr, i: u32) -> Result<String, DecompileError> {
        self.code
            .deref_name(i)
            .map(str::to_string)
            .ok_or_else(|| self.err(ins, format!("cell index {i} out of range")))
    }

    fn named(ins: &Instr, raw: u32) -> Option<&'static str> {
        match ins.op.arg {
            ArgKind::Named { names, shift } => names.get((raw >> shift) as usize).copied(),
            _ => None,
        }
    }

    /// A store of the value on top of the stack into `target`, merging `x = x + y` forms into `x += y`
    /// when the value is the in-place operation on the same target.
    fn store(&mut self, ins: &Instr, target: Expr) -> Result<(), DecompileError> {
        let value = match self.pop(ins)? {
            Val::Expr(e) => e,
            Val::InPlace(inplace) => {
                let InPlaceVal { left, op, right } = *inplace;
                if left != load_of(&target) {
                    return Err(self.err(
                        ins,
                        "an in-place operator's result stored into something other than its operand",
                    ));
                }
                // the copied target expression is evaluated once by the augmented assignment
                self.forget_copies_in(&target);
                self.out.push(Stmt::AugAssign {
                    target,
                    op,
                    value: right,
                });
                return Ok(());
            }
            Val::Module {
                name,
                fromlist: None,
                level: 0,
            } => {
                // `import a.b.c` stores `a`; anything else is `import a.b.c as x`
                let first = name.split('.').next().unwrap_or(&name).to_string();
                let asname = match &target {
                    Expr::Name { id, .. } if *id == first => None,
                    Expr::Name { id, .. } => Some(id.clone()),
                    _ => {
                        return Err(
                            self.err(ins, "an import stored into something other than a name")
                        )
                    }
                };
                self.out.push(Stmt::Import {
                    names: vec![Alias { name, asname }],
                });
                return Ok(());
            }
            Val::Imported { name, via } => {
                let id = match &target {
                    Expr::Name { id, .. } => id.clone(),
                    _ => {
                        return Err(self.err(
                            ins,
                            "an imported name stored into something other than a name",
                        ))
                    }
                };
                match &mut self.from_import {
                    Some((_, _, names)) => names.push(Alias {
                        asname: (id != name).then_some(id),
                        name,
                    }),
                    None => {
                        // 3.11+ `import a.b as c`: IMPORT_NAME a.b, IMPORT_FROM b, store c
                        // (`import a.b.c as d`: IMPORT_FROM b, the module popped, IMPORT_FROM c)
                        let module = match (self.stack.last(), via) {
                            (_, Some((m, read))) if read + 1 == m.split('.').count() => m,
                            (
                                Some(Val::Module {
                                    name,
                                    fromlist: None,
                                    ..
                                }),
                                None,
                            ) => name.clone(),
                            _ => return Err(self.err(ins, "IMPORT_FROM without its module")),
                        };
                        self.out.push(Stmt::Import {
                            names: vec![Alias {
                                name: module,
                                asname: Some(id),
                            }],
                        });
                        self.stack.pop();
                        self.pending_pop_module = true;
                    }
                }
                return Ok(());
            }
            Val::Unpacked { unpack, slot } => return self.fill_unpack(ins, unpack, slot, target),
            // an inlined comprehension's end puts the local it shadowed back: no statement
            Val::Saved(n) if matches!(&target, Expr::Name { id, .. } if *id == n) => return Ok(()),
            // a class body keeps its namespace for annotation scopes: the compiler's own
            Val::Locals if self.is_classdict_store(&target) => return Ok(()),
            Val::Class(c) => {
                let code = match self.code.consts.get(c.code) {
                    Some(Const::Code(code)) => code,
                    _ => return Err(self.err(ins, "class body is not code")),
                };
                if !matches!(&target, Expr::Name { id, .. } if *id == c.name) {
                    return Err(self.err(ins, "a class stored under another name"));
                }
                let def = crate::class_def(code, &c)
                    .map_err(|e| self.err(ins, format!("in class {}: {}", c.name, e.message)))?;
                self.out.push(def);
                return Ok(());
            }
            Val::Def(def) => {
                let name = match def.as_ref() {
                    Stmt::FunctionDef(d) | Stmt::AsyncFunctionDef(d) => d.name.clone(),
                    Stmt::ClassDef(c) => c.name.clone(),
                    _ => return Err(self.err(ins, "stores a statement that is not a def")),
                };
                let mangled = mangle(&self.code.name, &name);
                if !matches!(&target, Expr::Name { id, .. } if *id == name || Some(id) == mangled.as_ref())
                {
                    return Err(self.err(ins, format!("{name} stored under another name")));
                }
                self.out.push(*def);
                return Ok(());
            }
            Val::Function(f) => {
                // 3.14: a module's or class's annotations, as a compiler-made function
                if let Some(marker) = self.annotate_store(ins, f.code, &target)? {
                    self.out.push(marker);
                    return Ok(());
                }
                let code = match self.code.consts.get(f.code) {
                    Some(Const::Code(c)) => c,
                    _ => return Err(self.err(ins, "MAKE_FUNCTION of a constant that is not code")),
                };
                // (in a class body a private name is stored mangled: `def __f` stores `_C__f`)
                let mangled = mangle(&self.code.name, &code.name);
                let same_name = matches!(&target, Expr::Name { id, .. } if *id == code.name || Some(id) == mangled.as_ref());
                if same_name {
                    let def = crate::function_def(code, &f)
                        .map_err(|e| self.err(ins, format!("in {}: {}", code.name, e.message)))?;
                    self.out.push(def);
                    return Ok(());
                }
                self.expr_of(ins, Val::Function(f))?
            }
            other => return Err(self.err(ins, format!("stores {other:?}"))),
        };
        if let Some(alias) = self.type_alias_store(ins, &value, &target)? {
            self.out.push(alias);
            return Ok(());
        }
        if let Expr::NamedExpr { .. } = value {
            // `a = b = v`: a walrus stored again is a chained assignment
            let mut targets = vec![target];
            let mut value = value;
            while let Expr::NamedExpr {
                target: t,
                value: v,
            } = value
            {
                targets.push(*t);
                value = *v;
            }
            targets.reverse();
            self.out.push(Stmt::Assign { targets, value });
            return Ok(());
        }
        // (spill mode: the values below go into temporaries first, then each store is its own)
        let spilled_below = self.spilling() && self.group.is_none() && self.spill_from(0);
        if self.group.is_some() || !spilled_below && self.starts_group(&value, &target) {
            return self.group_store(ins, target, value);
        }
        if matches!(target, Expr::Name { .. })
            && !self.unbinding(&target, &value)
            && !self.comprehension_local(&target)
            && self.waiting(&target, Some(&value))
            && !self.materialize(&target)
        {
            return Err(self.err(ins, "a name stored while a read of it waits on the stack"));
        }
        // `a = b = value`: the second store of a copied value joins the first assignment
        if let Some(k) = self.impure_copies.iter().position(|c| *c == value) {
            if let Some(Stmt::Assign { targets, value: v }) = self.out.last_mut() {
                if *v == value {
                    targets.push(target);
                    self.impure_copies.remove(k);
                    return Ok(());
                }
            }
        }
        if let Some(k) = self.pure_copies.iter().position(|c| *c == value) {
            if let Some(Stmt::Assign { targets, value: v }) = self.out.last_mut() {
                if *v == value {
                    targets.push(target);
                    self.pure_copies.remove(k);
                    return Ok(());
                }
            }
        }
        self.out.push(Stmt::Assign {
            targets: vec![target],
            value,
        });
        Ok(())
    }

    fn set_function_attribute(
        &self,
        ins: &Instr,
        f: &mut FuncVal,
        flag: u32,
        v: Expr,
    ) -> Result<(), DecompileError> {
        let text = |e: &Expr| match e {
            Expr::Constant {
                value: Constant::Str(s),
                ..
            } => s.to_string_lossless(),
            _ => None,
        };
        match flag {
            8 => {} // the closure: the nested code names its free variables itself
            4 => {
                // 3.10+: a tuple of name, annotation pairs; before, a dict
                let pairs: Vec<(Expr, Expr)> = match v {
                    Expr::Tuple { elts, .. } => elts
                        .chunks(2)
                        .filter_map(|p| Some((p.first()?.clone(), p.get(1)?.clone())))
                        .collect(),
                    Expr::Dict { keys, values } => keys
                        .into_iter()
                        .zip(values)
                        .filter_map(|(k, v)| Some((k?, v)))
                        .collect(),
                    Expr::Constant {
                        value: Constant::Tuple(items),
                        ..
                    } => items
                        .chunks(2)
                        .filter_map(|p| {
                            Some((
                                Expr::constant(p.first()?.clone()),
                                Expr::constant(p.get(1)?.clone()),
                            ))
                        })
                        .collect(),
                    _ => return Err(self.err(ins, "annotations are not a tuple or dict")),
                };
                for (k, v) in pairs {
                    let k = text(&k)
                        .ok_or_else(|| self.err(ins, "an annotation key is not a string"))?;
                    f.annotations
                        .push((crate::private_names::key_as_written(self.code, k), v));
                }
            }
            2 => match v {
                Expr::Dict { keys, values } => {
                    for (k, v) in keys.into_iter().zip(values) {
                        let k = k.as_ref().and_then(text).ok_or_else(|| {
                            self.err(ins, "a keyword default's name is not a string")
                        })?;
                        f.kwdefaults
                            .push((crate::private_names::key_as_written(self.code, k), v));
                    }
                }
                _ => return Err(self.err(ins, "keyword defaults are not a dict")),
            },
            1 => {
                f.defaults = match v {
                    Expr::Tuple { elts, .. } => elts,
                    Expr::Constant {
                        value: Constant::Tuple(items),
                        ..
                    } => items.into_iter().map(Expr::constant).collect(),
                    _ => return Err(self.err(ins, "defaults are not a tuple")),
                }
            }
            _ => return Err(self.err(ins, format!("unknown function attribute {flag}"))),
        }
        Ok(())
    }

    /// `__build_class__(body_function, name, *bases, **keywords)`.
    fn build_class(
        &mut self,
        ins: &Instr,
        vals: Vec<Val>,
        kwnames: Vec<String>,
    ) -> Result<(), DecompileError> {
        let mut vals = vals.into_iter();
        let code = match vals.next() {
            Some(Val::Function(f)) if f.defaults.is_empty() && f.kwdefaults.is_empty() => f.code,
            _ => return Err(self.err(ins, "__build_class__ without a class body function")),
        };
        let name = match vals.next() {
            Some(Val::Expr(Expr::Constant {
                value: Constant::Str(s),
                ..
            })) => s
                .to_string_lossless()
                .ok_or_else(|| self.err(ins, "class name is not text"))?,
            _ => return Err(self.err(ins, "__build_class__ without a class name")),
        };
        let mut rest = Vec::new();
        for v in vals {
            rest.push(self.expr_of(ins, v)?);
        }
        let keywords = split_keywords(&mut rest, kwnames);
        self.stack.push(Val::Class(Box::new(ClassVal {
            code,
            name,
            bases: rest,
            keywords,
            decorators: Vec::new(),
        })));
        Ok(())
    }

    /// `class C(*bases)` / `class C(**kw)`: the class body's function and the name go into the
    /// positional tuple __build_class__ is called with; the function stands there as a marker
    /// naming its code object, until the call makes the class of it.
    fn mark_class_body_arg(&mut self, n: usize) {
        let Some(at) = self.stack.len().checked_sub(n) else {
            return;
        };
        let below = |k: usize| at.checked_sub(k).and_then(|i| self.stack.get(i));
        let under_class = below(1) == Some(&Val::BuildClass)
            || (below(1) == Some(&Val::Null) && below(2) == Some(&Val::BuildClass));
        if n < 2 || !under_class {
            return;
        }
        if let Some(Val::Function(f)) = self.stack.get(at) {
            if f.defaults.is_empty() && f.kwdefaults.is_empty() && f.decorators.is_empty() {
                let marker = Expr::name(&format!("{CLASS_BODY}{}", f.code));
                self.stack[at] = Val::Expr(marker);
            }
        }
    }

    /// The class statement of a __build_class__ call with unpacked arguments (see
    /// [`Self::mark_class_body_arg`]).
    fn build_class_unpacked(
        &mut self,
        ins: &Instr,
        mut args: Vec<Expr>,
        keywords: Vec<Keyword>,
    ) -> Result<(), DecompileError> {
        let body = match args.first() {
            Some(Expr::Name { id, .. }) => id
                .strip_prefix(CLASS_BODY)
                .and_then(|k| k.parse::<usize>().ok()),
            _ => None,
        };
        let (Some(code), true) = (body, args.len() >= 2) else {
            return Err(self.err(ins, "__build_class__ without a class body function"));
        };
        let name = match args.get(1) {
            Some(Expr::Constant {
                value: Constant::Str(s),
                ..
            }) => s
                .to_string_lossless()
                .ok_or_else(|| self.err(ins, "class name is not text"))?,
            _ => return Err(self.err(ins, "__build_class__ without a class name")),
        };
        let bases = args.split_off(2);
        self.stack.push(Val::Class(Box::new(ClassVal {
            code,
            name,
            bases,
            keywords,
            decorators: Vec::new(),
        })));
        Ok(())
    }

    /// A value used as an expression: functions become lambdas (only a lambda has an expression form).
    fn expr_of(&self, ins: &Instr, v: Val) -> Result<Expr, DecompileError> {
        match v {
            Val::Expr(e) | Val::Iter(e) => Ok(e),
            // a code object as a value (generated code makes functions of it at run time): by
            // the name the caller's constant table gives it
            Val::Code(i) => match self.code.consts.get(i) {
                Some(Const::Code(code)) if code.reference.is_some() => {
                    Ok(constant_expr(&Const::Code(code.clone())))
                }
                _ => Err(self.err(
                    ins,
                    "a code object used as a value, with no name to refer to it by",
                )),
            },
            Val::Function(f) => match self.code.consts.get(f.code) {
                Some(Const::Code(code)) if code.name == "<lambda>" && f.decorators.is_empty() => {
                    crate::lambda(code, &f)
                        .map_err(|e| self.err(ins, format!("lambda: {}", e.message)))
                }
                // 3.12+ `type X = v`: the value's function, in a tuple for INTRINSIC_TYPEALIAS
                _ if self.lazy_marker(&f).is_some() => self
                    .lazy_marker(&f)
                    .ok_or_else(|| self.err(ins, "a lazily evaluated value")),
                _ => Err(self.err(
                    ins,
                    "a function used as a value (comprehension or nested def in an expression)",
                )),
            },
            Val::InPlace(_) => Err(self.err(
                ins,
                "an in-place operator's result used as a value, not stored back into its operand",
            )),
            // 3.11+ PEP 646 `*args: *Ts`, a TypeVarTuple's default `*Ts`: UNPACK_SEQUENCE 1 of a
            // value used as a value, not stored
            Val::Unpacked { unpack, slot: 0 }
                if self.code.version >= framejit_bytecode::PyVersion::V3_11 =>
            {
                match self.unpacks.get(unpack) {
                    Some(Unpack {
                        source: Ok(e),
                        targets,
                        star: None,
                    }) if matches!(targets.as_slice(), [None]) => Ok(Expr::Starred {
                        value: Box::new(e.clone()),
                        ctx: ExprContext::Load,
                    }),
                    _ => Err(self.err(ins, "an unpacked value used as a value")),
                }
            }
            other => Err(self.err(
                ins,
                format!("expected a value on the stack, found {other:?}"),
            )),
        }
    }

    /// The strings of a tuple constant (keyword names, an import's from-list).
    fn str_items(&self, ins: &Instr, items: &[Constant]) -> Result<Vec<String>, DecompileError> {
        items
            .iter()
            .map(|c| match c {
                Constant::Str(s) => s
                    .to_string_lossless()
                    .ok_or_else(|| self.err(ins, "a name that is not text")),
                _ => Err(self.err(ins, "a name that is not a string")),
            })
            .collect()
    }

    /// `COPY 1; STORE name` with the copy still to be used: the value is `(name := value)`, evaluated once
    /// where the copy is used (`a = b = v` is a walrus stored again, folded back by `store`).
    fn walrus(&mut self, name: &str) -> bool {
        if matches!(name, "__classcell__" | "__classdictcell__") {
            // a class body's ending: store the cell and return it (the class statement's own code)
            return false;
        }
        let len = self.stack.len();
        if len < 2 || len - 2 < self.entry_len {
            return false;
        }
        let (Some(Val::Expr(top)), Some(Val::Expr(below))) =
            (self.stack.get(len - 1), self.stack.get(len - 2))
        else {
            return false;
        };
        if top != below {
            return false;
        }
        let value = top.clone();
        if let Some(k) = self.impure_copies.iter().position(|c| *c == value) {
            self.impure_copies.remove(k);
        }
        if let Some(k) = self.pure_copies.iter().position(|c| *c == value) {
            self.pure_copies.remove(k);
        }
        self.stack.truncate(len - 2);
        self.push(Expr::NamedExpr {
            target: Box::new(Expr::Name {
                id: name.to_string(),
                ctx: ExprContext::Store,
            }),
            value: Box::new(value),
        });
        true
    }

    /// A store while values of the same statement wait below it: a tuple assignment (`a, b = x, y`,
    /// compiled without a tuple), whose values were all evaluated before any is stored. Storing them
    /// one by one would reorder evaluation (`a = b; b = a` is not a swap).
    fn starts_group(&self, value: &Expr, target: &Expr) -> bool {
        match self.stack.last() {
            Some(Val::Expr(below)) if self.stack.len() > self.entry_len => {
                // an equal value below is a copy (`a = b = x`) unless it was evaluated twice
                let copy = below == value
                    && (matches!(value, Expr::Name { .. } | Expr::Constant { .. })
                        || self.impure_copies.contains(value));
                if copy {
                    return false;
                }
                // a tuple assignment stores again right away; a single store of a name with values
                // kept under it (a generated prologue) is a statement of its own, before which the
                // kept values are evaluated (`store` makes temporaries of them where order needs)
                // (or an unpacking of the next value, `a, (b, c) = x, y`, after the values were
                // swapped into their order)
                // (or the values were moved into their order by SWAP / ROT_*: a tuple assignment
                // whose next target is an attribute or an item, `a, x.b = x.b, None`, loads its
                // object before storing)
                let more_stores = self.pair_store
                    || self.next_op.is_some_and(|n| n.starts_with("STORE_"))
                    || !self.moves.is_empty();
                more_stores || !matches!(target, Expr::Name { .. })
            }
            _ => false,
        }
    }

    /// Does `e` read the name `target` stores (or deletes)? Judged on the printed source, so a
    /// name that only looks alike (an attribute, a string) counts too: that only refuses more.
    fn reads(&self, e: &Expr, target: &Expr) -> bool {
        let Expr::Name { id, .. } = target else {
            return true;
        };
        let text = crate::printer::print_expr(e, self.code.version);
        let word = |c: char| c.is_alphanumeric() || c == '_';
        text.match_indices(id.as_str()).any(|(i, _)| {
            let before = text[..i].chars().next_back();
            let after = text[i + id.len()..].chars().next();
            !before.is_some_and(word) && !after.is_some_and(word)
        })
    }

    /// Values waiting on the stack that read `target`, about to be stored or deleted: evaluate them
    /// now into temporaries (`_tmp1 = x[0]; del x; return _tmp1`), with every value loaded after the
    /// first of them (or after an earlier one with effects), in the order they were loaded. False
    /// when that cannot be done (a value that is not an expression is in the way).
    fn materialize(&mut self, target: &Expr) -> bool {
        let pure = |e: &Expr| matches!(e, Expr::Name { .. } | Expr::Constant { .. });
        let floor = self.entry_len;
        let needs = |this: &Self, k: usize, v: &Val| match v {
            Val::Expr(_) if k < this.settled => false,
            Val::Expr(e) => this.reads(e, target) || (k >= floor && !pure(e)),
            _ => false,
        };
        let Some(lo) = (0..self.stack.len()).find(|&k| needs(self, k, &self.stack[k])) else {
            return true;
        };
        if self.stack[lo..]
            .iter()
            .any(|v| !matches!(v, Val::Expr(_) | Val::Null))
        {
            return false;
        }
        for i in lo..self.stack.len() {
            let Val::Expr(e) = &self.stack[i] else {
                continue;
            };
            if matches!(e, Expr::Constant { .. }) {
                continue;
            }
            let e = e.clone();
            let tmp = self.fresh_temp();
            self.out.push(Stmt::Assign {
                targets: vec![Expr::Name {
                    id: tmp.clone(),
                    ctx: ExprContext::Store,
                }],
                value: e,
            });
            self.stack[i] = Val::Expr(Expr::name(&tmp));
        }
        true
    }

    /// A local name for a temporary that no name of the code object uses.
    fn fresh_temp(&self) -> String {
        self.code.fresh_temp()
    }

    /// `name = None` before `del name`: the compiler's unbinding of `except ... as name` (the
    /// structurer removes it; what was read of `name` before it was read in the clause's body).
    fn unbinding(&self, target: &Expr, value: &Expr) -> bool {
        matches!(target, Expr::Name { .. })
            && matches!(
                value,
                Expr::Constant {
                    value: Constant::None,
                    ..
                }
            )
            && self.next_op.is_some_and(|n| n.starts_with("DELETE_"))
    }

    /// The `del name` of that unbinding: the statement before it is `name = None`.
    fn unbound_before(&self, target: &Expr) -> bool {
        let Expr::Name { id, .. } = target else {
            return false;
        };
        matches!(self.out.last(), Some(Stmt::Assign {
            targets,
            value: Expr::Constant { value: Constant::None, .. },
        }) if matches!(targets.as_slice(), [Expr::Name { id: t, .. }] if t == id))
    }

    /// 3.12+: a name an inlined comprehension binds (its outer value saved on the stack): reads of
    /// the outer one loaded before the comprehension are not changed by it.
    fn comprehension_local(&self, target: &Expr) -> bool {
        let Expr::Name { id, .. } = target else {
            return false;
        };
        self.stack
            .iter()
            .any(|v| matches!(v, Val::Saved(n) if n == id))
    }

    /// Must values waiting on the stack be evaluated before a store of `target` (other than
    /// `value`, which it stores)? When one reads `target`, or has effects and was loaded by this
    /// block (the store's value was evaluated after it).
    fn waiting(&self, target: &Expr, value: Option<&Expr>) -> bool {
        let pure = |e: &Expr| matches!(e, Expr::Name { .. } | Expr::Constant { .. });
        self.stack.iter().enumerate().any(|(k, v)| match v {
            Val::Expr(_) if k < self.settled => false,
            Val::Expr(e) | Val::Chain(e) => {
                Some(e) != value && (self.reads(e, target) || (k >= self.entry_len && !pure(e)))
            }
            _ => false,
        })
    }

    /// A read of the name `target` waiting on the stack (a value loaded before the store or delete
    /// that would come out after it): the statement cannot come out first.
    fn pending_read(&self, target: &Expr, except: Option<&Expr>) -> bool {
        self.stack.iter().enumerate().any(|(k, v)| match v {
            Val::Expr(_) if k < self.settled => false,
            Val::Expr(e) | Val::Chain(e) => Some(e) != except && self.reads(e, target),
            _ => false,
        })
    }

    fn group_store(
        &mut self,
        ins: &Instr,
        target: Expr,
        value: Expr,
    ) -> Result<(), DecompileError> {
        let pos = self.stack.len();
        if self.group.is_none() {
            // the group is the run of this statement's values under the one stored now
            let mut base = pos;
            while base > self.entry_len && matches!(self.stack.get(base - 1), Some(Val::Expr(_))) {
                base -= 1;
            }
            let mut values: Vec<(Expr, usize)> = self.stack[base..]
                .iter()
                .filter_map(|v| match v {
                    Val::Expr(e) => Some((e.clone(), 0)),
                    _ => None,
                })
                .collect();
            values.push((value.clone(), 0));
            // undo the SWAP/ROT moves to find where each value was pushed (its evaluation rank)
            let mut origin: Vec<usize> = (0..=pos).collect();
            for &(at, n, kind) in &self.moves {
                if at >= origin.len() || n > at + 1 {
                    return Err(self.err(ins, "a stack move outside the tuple assignment"));
                }
                match kind {
                    Move::Swap => origin.swap(at, at + 1 - n),
                    Move::Rot => {
                        let top = origin.remove(at);
                        origin.insert(at + 1 - n, top);
                    }
                }
            }
            for (k, v) in values.iter_mut().enumerate() {
                v.1 = origin.get(base + k).copied().unwrap_or(usize::MAX);
            }
            let n = values.len();
            self.group = Some(Group {
                base,
                values,
                targets: vec![None; n],
            });
        }
        let Some(g) = self.group.as_mut() else {
            return Err(self.err(ins, "no tuple assignment"));
        };
        let slot = match pos.checked_sub(g.base) {
            Some(k) if k < g.targets.len() && g.targets[k].is_none() && g.values[k].0 == value => k,
            _ => return Err(self.err(ins, "a store that does not belong to the tuple assignment")),
        };
        g.targets[slot] = Some(target);
        if pos > g.base {
            return Ok(());
        }
        let Some(g) = self.group.take() else {
            return Ok(());
        };
        let mut pairs: Vec<(usize, Expr, Expr)> = g
            .values
            .into_iter()
            .zip(g.targets)
            .filter_map(|((v, rank), t)| t.map(|t| (rank, t, v)))
            .collect();
        pairs.sort_by_key(|p| p.0);
        let (targets, values): (Vec<Expr>, Vec<Expr>) =
            pairs.into_iter().map(|(_, t, v)| (t, v)).unzip();
        self.out.push(Stmt::Assign {
            targets: vec![Expr::Tuple {
                elts: targets,
                ctx: ExprContext::Store,
            }],
            value: Expr::Tuple {
                elts: values,
                ctx: ExprContext::Load,
            },
        });
        Ok(())
    }

    /// `b` kept as `[b, a, b]` for a chained comparison: the deep `b` waits for the next comparison,
    /// the top one goes into this one; each is used once, so the copy is no double evaluation.
    fn mark_chain(&mut self) {
        let len = self.stack.len();
        if len < 3 {
            return;
        }
        if let Some(Val::Expr(m)) = self.stack.get(len - 3).cloned() {
            if let Some(k) = self.impure_copies.iter().rposition(|c| *c == m) {
                self.impure_copies.remove(k);
            }
            self.stack[len - 3] = Val::Chain(m);
        }
    }

    /// Copies inside `target` are used once by an augmented assignment.
    fn forget_copies_in(&mut self, target: &Expr) {
        let parts: Vec<&Expr> = match target {
            Expr::Attribute { value, .. } => vec![value.as_ref()],
            Expr::Subscript { value, slice, .. } => vec![value.as_ref(), slice.as_ref()],
            _ => vec![],
        };
        for p in parts {
            if let Some(k) = self.impure_copies.iter().position(|c| c == p) {
                self.impure_copies.remove(k);
            }
        }
    }

    /// Every copy of an impure expression was folded into a statement (call at the end of a block).
    pub fn check_copies(&self) -> Result<(), DecompileError> {
        if self.group.is_some() {
            return Err(DecompileError::new(
                self.code,
                "a tuple assignment whose stores do not all follow in its block",
            ));
        }
        match self.impure_copies.first() {
            None => Ok(()),
            Some(e) => Err(DecompileError::new(
                self.code,
                format!("a copied expression would be evaluated twice: {e:?}"),
            )),
        }
    }

    /// A target for slot `slot` of unpacking `u`; the assignment comes out when every slot has one.
    fn fill_unpack(
        &mut self,
        ins: &Instr,
        u: usize,
        slot: usize,
        target: Expr,
    ) -> Result<(), DecompileError> {
        let up = self
            .unpacks
            .get_mut(u)
            .ok_or_else(|| DecompileError::new(self.code, "unknown unpacking"))?;
        let target = if up.star == Some(slot) {
            Expr::Starred {
                value: Box::new(target),
                ctx: ExprContext::Store,
            }
        } else {
            target
        };
        match up.targets.get_mut(slot) {
            Some(t @ None) => *t = Some(target),
            _ => return Err(self.err(ins, "an unpacking slot stored twice")),
        }
        if up.targets.iter().any(Option::is_none) {
            return Ok(());
        }
        let mut elts: Vec<Expr> = up.targets.iter().flatten().cloned().collect();
        // a dropped store is one of the same unpacking's later names (any of them compiles
        // to the same code: only the last store of a name is kept)
        // (the starred target too: `_, *_, _ = v`)
        for k in 0..elts.len() {
            let slot = match &mut elts[k] {
                Expr::Starred { value, .. } => value.as_mut(),
                e => e,
            };
            if *slot != dead_store() {
                continue;
            }
            let later = elts[k + 1..]
                .iter()
                .find(|e| matches!(e, Expr::Name { .. }) && **e != dead_store())
                .cloned();
            match (later, &mut elts[k]) {
                (Some(name), Expr::Starred { value, .. }) => **value = name,
                (Some(name), e) => *e = name,
                (None, _) => return Err(self.err(ins, "an unpacked value dropped, not stored")),
            }
        }
        let tuple = Expr::Tuple {
            elts,
            ctx: ExprContext::Store,
        };
        match up.source.clone() {
            Ok(value) => {
                // `(a, b), (c, d) = x, a`: a tuple assignment whose first target unpacks (the
                // values swapped so that x is unpacked first) leaves the other values on the stack;
                // written as statements one after another they would be evaluated after the
                // stores (`c, d = a` reading the new `a`): refused where that could differ
                // read as one tuple assignment with the values kept under it, in the order
                // they were loaded (`group_store`)
                let kept = self.stack.len() > self.entry_len
                    && matches!(self.stack.last(), Some(Val::Expr(_)));
                if self.group.is_some() || (!self.moves.is_empty() && kept) {
                    return self.group_store(ins, tuple, value);
                }
                if !self.moves.is_empty() {
                    let mut stored = Vec::new();
                    store_targets(&tuple, &mut stored);
                    if stored.iter().any(|t| self.waiting(t, Some(&value))) {
                        return Err(self.err(
                            ins,
                            "a tuple assignment with a nested target whose other values read what it stores",
                        ));
                    }
                }
                self.out.push(Stmt::Assign {
                    targets: vec![tuple],
                    value,
                });
                Ok(())
            }
            Err((outer, outer_slot)) => self.fill_unpack(ins, outer, outer_slot, tuple),
        }
    }

    /// Execute one instruction. Returns the block exit when the instruction ends the block.
    pub fn step(&mut self, ins: &Instr) -> Result<Option<Exit>, DecompileError> {
        if !self.spilling() {
            // (only a POP_TOP reads the value it pops, and only whether it does work: asked before
            // the step, with no copy of the value)
            let popped_costs = ins.op.id == ids::POP_TOP
                && matches!(self.stack.last(), Some(Val::Expr(e)) if spill::costs(e, self.code.version));
            let exit = self.step_one(ins)?;
            // a computation waiting on the stack would be lost (a return or raise) or run after
            // an expression statement computed later: the second attempt gives it a temporary
            // (a value computed before a try or with body's range ended and returned after the
            // cleanup, a finally body's copy or the exit call, is the compiler's: it was computed
            // in an earlier block, which the range's end split off)
            let left_behind = match (&exit, ins.op.id) {
                (Some(Exit::Exit), _) => Some(false),
                (None, ids::POP_TOP) => popped_costs.then_some(true),
                _ => None,
            };
            if left_behind.is_some_and(|this_block| self.pending_work(this_block)) {
                return Err(self.err(
                    ins,
                    "a value computed earlier waits on the stack past a statement",
                ));
            }
            return Ok(exit);
        }
        let (made, before) = (self.out.len(), self.stack.len());
        let exit = self.step_one(ins)?;
        self.spill_before(ins, made, before.min(self.stack.len()));
        Ok(exit)
    }

    /// Whether CALL_FUNCTION_EX's positional tuple is the compiler's packing of the call's
    /// arguments (written back one by one) rather than the single `*value` of the source
    /// (`f(*(1, 2))`, `f(*[a, b])`, `f(*args)`): the compiler packs them where the call has a
    /// starred argument among others, a `**` argument, or (3.10+) more arguments than it keeps on
    /// the stack (positional + 2 per keyword > 30).
    fn spreads_call_args(&self, posargs: &Expr, kwargs: Option<&Expr>) -> bool {
        let items = match posargs {
            Expr::Tuple { elts, .. } => {
                if elts.iter().any(|e| matches!(e, Expr::Starred { .. })) {
                    return true;
                }
                elts.len()
            }
            // (3.8 packs a call's positional arguments into a constant only where a `**`
            // argument comes with them: without one, the constant is the source's `*(...)`)
            // (and it is never empty: the empty tuple it packs is BUILD_TUPLE 0)
            Expr::Constant {
                value: Constant::Tuple(items),
                ..
            } if self.code.version < PyVersion::V3_9 && (kwargs.is_none() || items.is_empty()) => {
                return false
            }
            Expr::Constant {
                value: Constant::Tuple(items),
                ..
            } => items.len(),
            _ => return false,
        };
        let keywords = match kwargs {
            None => 0,
            // (3.8 passes a lone `**display` as it is, and packs nothing into the tuple but for
            // `*` or `**` arguments)
            Some(_) if self.code.version < PyVersion::V3_9 => return true,
            Some(Expr::Dict { keys, .. }) if keys.iter().all(Option::is_some) => keys.len(),
            Some(_) => return true,
        };
        // (an empty tuple is the compiler's: no positional arguments besides the keyword dict)
        items == 0 || (self.code.version >= PyVersion::V3_10 && items + 2 * keywords > 30)
    }

    fn step_one(&mut self, ins: &Instr) -> Result<Option<Exit>, DecompileError> {
        let raw = match ins.arg {
            Arg::Raw(a) => a,
            Arg::Jump(_) => 0,
        };
        let name = ins.op.name;
        self.statement_boundary();
        let was_copy = std::mem::take(&mut self.last_was_copy);
        let prev = std::mem::replace(&mut self.prev, (name, raw));
        if matches!(ins.op.id, ids::TO_BOOL | ids::NOT_TAKEN) {
            self.last_was_copy = was_copy;
        }
        if (ins.op.id == ids::COPY && raw == 1) || ins.op.id == ids::DUP_TOP {
            self.last_was_copy = true;
        }
        match ins.op.id {
            ids::NOP
            | ids::RESUME
            | ids::CACHE
            | ids::EXTENDED_ARG
            | ids::COPY_FREE_VARS
            | ids::MAKE_CELL
            | ids::GEN_START
            | ids::SETUP_ANNOTATIONS
            | ids::NOT_TAKEN => {}
            // ≤3.10 block setups are structured before a block runs (structure/legacy_blocks.rs);
            // POP_BLOCK ends a protected range and moves no value
            ids::POP_BLOCK => {}
            // ≤3.10 `return x` in an except clause moves x under the saved exception that POP_EXCEPT
            // drops; those three values are not on the symbolic stack, so x stays where it is
            ids::ROT_FOUR if self.next_op == Some("POP_EXCEPT") => self.value_under_except = true,
            // 3.11+ the same with SWAP (`return x` in an except clause)
            ids::SWAP if self.next_op == Some("POP_EXCEPT") => {
                self.swap_under_saved_exc(ins, raw as usize)?
            }
            // ≤3.10 `except T:`: DUP_TOP of the exception type, T, then a jump unless it matches
            ids::JUMP_IF_NOT_EXC_MATCH => {
                let t = self.pop_expr(ins)?;
                self.pop_expr(ins)?;
                return Ok(Some(Exit::Branch {
                    test: Expr::Call {
                        func: Box::new(Expr::name(EXC_MATCH)),
                        args: vec![t],
                        keywords: Vec::new(),
                    },
                    jump_if: false,
                    keep: false,
                    copy: false,
                }));
            }
            ids::COMPARE_OP if Self::named(ins, raw) == Some("exception match") => {
                // 3.8's spelling of the same test, before POP_JUMP_IF_FALSE
                let t = self.pop_expr(ins)?;
                self.pop_expr(ins)?;
                self.push(Expr::Call {
                    func: Box::new(Expr::name(EXC_MATCH)),
                    args: vec![t],
                    keywords: Vec::new(),
                });
            }
            ids::PUSH_NULL => self.stack.push(Val::Null),
            ids::LOAD_COMMON_CONSTANT => {
                // 3.14: AssertionError (of assert), NotImplementedError, tuple, all, any - builtins that
                // are not looked up by name
                let n = Self::named(ins, raw)
                    .ok_or_else(|| self.err(ins, "unknown common constant"))?;
                self.push(Expr::name(if n == "AssertionError" {
                    ASSERTION_ERROR
                } else {
                    n
                }));
            }
            ids::BINARY_SLICE => {
                let end = self.pop_expr(ins)?;
                let start = self.pop_expr(ins)?;
                let obj = self.pop_expr(ins)?;
                let slice = slice_of(start, end);
                self.push(Expr::Subscript {
                    value: Box::new(obj),
                    slice: Box::new(slice),
                    ctx: ExprContext::Load,
                });
            }
            ids::STORE_SLICE => {
                let end = self.pop_expr(ins)?;
                let start = self.pop_expr(ins)?;
                let obj = self.pop_expr(ins)?;
                let slice = slice_of(start, end);
                self.store(
                    ins,
                    Expr::Subscript {
                        value: Box::new(obj),
                        slice: Box::new(slice),
                        ctx: ExprContext::Store,
                    },
                )?;
            }
            ids::STORE_FAST_STORE_FAST | ids::STORE_FAST_LOAD_FAST => {
                // 3.13+ pairs: first index in the high nibble
                let first = self.local(ins, raw >> 4)?;
                if !(was_copy && self.walrus(&first)) {
                    self.pair_store = name == "STORE_FAST_STORE_FAST";
                    let stored = self.store(
                        ins,
                        Expr::Name {
                            id: first,
                            ctx: ExprContext::Store,
                        },
                    );
                    self.pair_store = false;
                    stored?;
                }
                let second = self.local(ins, raw & 15)?;
                if name == "STORE_FAST_STORE_FAST" {
                    self.store(
                        ins,
                        Expr::Name {
                            id: second,
                            ctx: ExprContext::Store,
                        },
                    )?;
                } else {
                    // (the load starts the next statement: its base is below the loaded value,
                    // as it would be between two instructions)
                    self.statement_boundary();
                    self.push(Expr::name(&second));
                }
            }
            ids::CALL_FUNCTION_KW => {
                // ≤3.10: a tuple of keyword names on top of the arguments
                let names: Vec<String> = match self.pop_expr(ins)? {
                    Expr::Constant {
                        value: Constant::Tuple(items),
                        ..
                    } => self.str_items(ins, &items)?,
                    _ => return Err(self.err(ins, "keyword names are not a tuple")),
                };
                // `class C(metaclass=M)`: __build_class__ called with keywords
                let below = self.stack.len().checked_sub(raw as usize + 1);
                if below.and_then(|i| self.stack.get(i)) == Some(&Val::BuildClass) {
                    let mut vals = Vec::with_capacity(raw as usize);
                    for _ in 0..raw {
                        vals.push(self.pop(ins)?);
                    }
                    vals.reverse();
                    self.pop(ins)?;
                    return self.build_class(ins, vals, names).map(|()| None);
                }
                let mut args = self.pop_n(ins, raw as usize)?;
                let func = self.pop_expr(ins)?;
                let keywords = split_keywords(&mut args, names);
                self.push(Expr::Call {
                    func: Box::new(func),
                    args,
                    keywords,
                });
            }
            ids::LIST_APPEND if self.eg_list_append(ins, raw)? => {}
            ids::LIST_APPEND | ids::SET_ADD | ids::MAP_ADD => {
                // (a lambda is a value: `[lambda: x for x in xs]`)
                let v = self.pop(ins)?;
                let mut args = vec![self.expr_of(ins, v)?];
                if name == "MAP_ADD" {
                    args.insert(0, self.pop_expr(ins)?);
                }
                // depth 1: a display built item by item (large dict literals); deeper: what a
                // comprehension collects, under its loop's iterator
                if raw == 1 {
                    // 3.14: where a conditional annotation stands
                    if let Some(mark) = self.conditional_mark(self.stack.last(), &args[0]) {
                        self.stack.pop();
                        self.push(mark);
                        return Ok(None);
                    }
                    let spilling = self.spilling();
                    match (self.stack.last_mut(), name) {
                        (Some(Val::Expr(Expr::Dict { keys, values })), "MAP_ADD") => {
                            let mut args = args.into_iter();
                            keys.push(args.next());
                            values.extend(args);
                            return Ok(None);
                        }
                        (Some(Val::Expr(Expr::List { elts, .. })), "LIST_APPEND")
                        | (Some(Val::Expr(Expr::Set { elts })), "SET_ADD") => {
                            elts.extend(args);
                            return Ok(None);
                        }
                        (Some(Val::Expr(_)), "LIST_APPEND" | "SET_ADD") if spilling => {
                            let method = if name == "LIST_APPEND" {
                                "append"
                            } else {
                                "add"
                            };
                            let idx = self.stack.len() - 1;
                            let arg = args
                                .into_iter()
                                .next()
                                .ok_or_else(|| self.err(ins, "nothing to add"))?;
                            self.update_in_place(ins, idx, method, arg)?;
                            return Ok(None);
                        }
                        _ => return Err(self.err(ins, "adds to something that is not a display")),
                    }
                }
                // what a comprehension collects into must be the collection of that kind
                let into = self
                    .stack
                    .len()
                    .checked_sub(raw as usize)
                    .and_then(|i| self.stack.get(i));
                let fits = matches!(
                    (into, name),
                    (Some(Val::Expr(Expr::List { .. })), "LIST_APPEND")
                        | (Some(Val::Expr(Expr::Set { .. })), "SET_ADD")
                        | (Some(Val::Expr(Expr::Dict { .. })), "MAP_ADD")
                );
                if !fits {
                    return Err(self.err(
                        ins,
                        "a comprehension adds to something that is not its collection",
                    ));
                }
                self.out.push(Stmt::Expr {
                    value: Expr::Call {
                        func: Box::new(Expr::name(COLLECT)),
                        args,
                        keywords: Vec::new(),
                    },
                });
            }
            ids::LOAD_ASSERTION_ERROR => self.push(Expr::name(ASSERTION_ERROR)),
            ids::DELETE_SUBSCR => {
                let key = self.pop_expr(ins)?;
                let obj = self.pop_expr(ins)?;
                let t = Expr::Subscript {
                    value: Box::new(obj),
                    slice: Box::new(key),
                    ctx: ExprContext::Del,
                };
                self.out.push(Stmt::Delete { targets: vec![t] });
            }
            ids::DELETE_ATTR => {
                let attr = self.name(ins, raw)?;
                let obj = self.pop_expr(ins)?;
                let t = Expr::Attribute {
                    value: Box::new(obj),
                    attr,
                    ctx: ExprContext::Del,
                };
                self.out.push(Stmt::Delete { targets: vec![t] });
            }
            ids::BEFORE_WITH => {
                let cm = self.pop_expr(ins)?;
                self.stack.push(Val::WithExit);
                self.push(Expr::Call {
                    func: Box::new(Expr::name(WITH_ENTER)),
                    args: vec![cm],
                    keywords: Vec::new(),
                });
            }
            ids::DICT_MERGE | ids::DICT_UPDATE => {
                let items = self.pop_expr(ins)?;
                let idx = self
                    .stack
                    .len()
                    .checked_sub(raw as usize)
                    .ok_or_else(|| self.err(ins, "stack underflow"))?;
                let spilling = self.spilling();
                match self.stack.get_mut(idx) {
                    Some(Val::Expr(Expr::Dict { keys, values })) => match items {
                        // `**{...}` first (`f(**{'a': 1})`, `{**{'a': 1}}`): the compiler merges
                        // a display of its own only after something is in the dict
                        display @ Expr::Dict { .. } if keys.is_empty() => {
                            keys.push(None);
                            values.push(display);
                        }
                        Expr::Dict { keys: k, values: v } => {
                            keys.extend(k);
                            values.extend(v);
                        }
                        other => {
                            keys.push(None);
                            values.push(other);
                        }
                    },
                    Some(Val::Expr(_)) if spilling && name == "DICT_UPDATE" => {
                        self.update_in_place(ins, idx, "update", items)?;
                    }
                    _ => return Err(self.err(ins, "merges into something that is not a dict")),
                }
            }
            ids::CALL_FUNCTION_EX => {
                // f(*args, **kwargs): the positional tuple and (flag 1) the keyword dict
                let kwargs = if self.code.version >= PyVersion::V3_14 {
                    // 3.14: no flag; the keyword dict or a NULL is always there
                    match self.pop(ins)? {
                        Val::Null => None,
                        v => Some(self.expr_of(ins, v)?),
                    }
                } else if raw & 1 == 1 {
                    Some(self.pop_expr(ins)?)
                } else {
                    None
                };
                let posargs = self.pop_expr(ins)?;
                let f = self.pop(ins)?;
                // `class C(*bases)`, `class C(**kw)`: __build_class__ called with unpacking (3.11-3.12
                // [NULL, build_class, ...], 3.13+ [build_class, NULL, ...])
                let class_call = f == Val::BuildClass
                    || (f == Val::Null && self.stack.last() == Some(&Val::BuildClass));
                if class_call {
                    let under = if f == Val::Null {
                        Val::BuildClass
                    } else {
                        Val::Null
                    };
                    if self.stack.last() == Some(&under) {
                        self.stack.pop();
                    }
                }
                let func = match f {
                    _ if class_call => Expr::name(CLASS_BODY),
                    Val::Null => self.pop_expr(ins)?,
                    other => {
                        if matches!(self.stack.last(), Some(Val::Null)) {
                            self.stack.pop();
                        }
                        self.expr_of(ins, other)?
                    }
                };
                let args = if self.spreads_call_args(&posargs, kwargs.as_ref()) {
                    match posargs {
                        Expr::Tuple { elts, .. } => elts,
                        Expr::Constant {
                            value: Constant::Tuple(items),
                            ..
                        } => items.into_iter().map(Expr::constant).collect(),
                        other => vec![other],
                    }
                } else {
                    vec![Expr::Starred {
                        value: Box::new(posargs),
                        ctx: ExprContext::Load,
                    }]
                };
                let mut keywords = Vec::new();
                // (3.8: one mapping not merged by BUILD_MAP_UNPACK_WITH_CALL, with no `*`
                // argument, is the source's one `**` argument: keywords `k=v` alone would
                // compile to CALL_FUNCTION_KW; `py38::whole_mapping`)
                let whole38 = py38::whole_mapping(self.code.version, prev.0, &args, &kwargs);
                // a key that cannot be a keyword's name (`f(**{'2': 2})`): the dict is passed
                // whole, when it is one display
                let whole = whole38
                    || match &kwargs {
                        Some(Expr::Dict { keys, .. })
                            if !keys.iter().all(|k| k.is_none() || py38::keyword_name(k)) =>
                        {
                            if keys.iter().any(Option::is_none) {
                                return Err(self.err(ins, "a keyword that is not a name"));
                            }
                            true
                        }
                        _ => false,
                    };
                match kwargs {
                    Some(d) if whole => keywords.push(Keyword {
                        arg: None,
                        value: d,
                    }),
                    Some(Expr::Dict { keys, values }) => {
                        for (k, v) in keys.into_iter().zip(values) {
                            let arg = match k {
                                None => None,
                                Some(Expr::Constant {
                                    value: Constant::Str(s),
                                    ..
                                }) => Some(
                                    s.to_string_lossless()
                                        .ok_or_else(|| self.err(ins, "keyword is not text"))?,
                                ),
                                Some(_) => {
                                    return Err(self.err(ins, "a keyword that is not a string"))
                                }
                            };
                            keywords.push(Keyword { arg, value: v });
                        }
                    }
                    Some(other) => keywords.push(Keyword {
                        arg: None,
                        value: other,
                    }),
                    None => {}
                }
                if class_call {
                    return self
                        .build_class_unpacked(ins, args, keywords)
                        .map(|()| None);
                }
                self.push(Expr::Call {
                    func: Box::new(func),
                    args,
                    keywords,
                });
            }
            // 3.11+ exception handlers. The saved exception that PUSH_EXC_INFO pushes under the
            // current one is not on the symbolic stack (POP_EXCEPT restores it): the structurer
            // accounts for it.
            ids::PUSH_EXC_INFO | ids::POP_EXCEPT => {
                // ≤3.10: where an except clause ends; what follows is outside the handler
                // (a value computed in the handler and moved under the saved exception is the
                // handler's: no marker)
                let computed = std::mem::take(&mut self.value_under_except);
                // 3.11+: the same where a value computed in the handler waits above the saved
                // exception (moved under it by SWAP)
                let computed = computed || (name == "POP_EXCEPT" && self.value_over_saved_exc());
                if name == "POP_EXCEPT" {
                    self.pop_saved_exc();
                }
                if name == "POP_EXCEPT" && !computed {
                    self.out.push(Stmt::Expr {
                        value: Expr::name(POP_EXCEPT),
                    });
                }
            }
            ids::CHECK_EG_MATCH => self.check_eg_match(ins)?,
            ids::CHECK_EXC_MATCH => {
                let t = self.pop_expr(ins)?;
                self.push(Expr::Call {
                    func: Box::new(Expr::name(EXC_MATCH)),
                    args: vec![t],
                    keywords: Vec::new(),
                });
            }
            ids::RERAISE => {
                self.out.push(Stmt::Expr {
                    value: Expr::name(RERAISE),
                });
                return Ok(Some(Exit::Exit));
            }
            // a generator's prologue: the value the frame is first resumed with, popped at once
            ids::RETURN_GENERATOR => self.stack.push(Val::Null),
            ids::YIELD_VALUE => {
                let v = self.pop_expr(ins)?;
                let value = match v {
                    Expr::Constant {
                        value: Constant::None,
                        ..
                    } => None,
                    other => Some(Box::new(other)),
                };
                self.push(Expr::Yield { value });
            }
            ids::FORMAT_VALUE | ids::FORMAT_SIMPLE | ids::FORMAT_WITH_SPEC => {
                // ≤3.12 FORMAT_VALUE: bits 0-1 the conversion, bit 2 a format spec on the stack;
                // 3.13+: CONVERT_VALUE before, FORMAT_WITH_SPEC with the spec on the stack
                let has_spec =
                    name == "FORMAT_WITH_SPEC" || (name == "FORMAT_VALUE" && raw & 4 != 0);
                let spec = if has_spec {
                    Some(Box::new(as_joined(self.pop_expr(ins)?)))
                } else {
                    None
                };
                let (value, conversion) = match self.pop_expr(ins)? {
                    Expr::FormattedValue {
                        value,
                        conversion,
                        format_spec: None,
                    } if name != "FORMAT_VALUE" => (value, conversion),
                    other => (
                        Box::new(other),
                        conversion_of(if name == "FORMAT_VALUE" { raw & 3 } else { 0 }),
                    ),
                };
                let fv = Expr::FormattedValue {
                    value,
                    conversion,
                    format_spec: spec,
                };
                self.push(Expr::JoinedStr { values: vec![fv] });
            }
            ids::CONVERT_VALUE => {
                // 3.13+: marks the value with its conversion; FORMAT_* makes the field
                let v = self.pop_expr(ins)?;
                let conversion = match Self::named(ins, raw) {
                    Some("str") => Conversion::Str,
                    Some("repr") => Conversion::Repr,
                    Some("ascii") => Conversion::Ascii,
                    _ => return Err(self.err(ins, "unknown conversion")),
                };
                self.push(Expr::FormattedValue {
                    value: Box::new(v),
                    conversion,
                    format_spec: None,
                });
            }
            ids::BUILD_STRING => {
                let parts = self.pop_n(ins, raw as usize)?;
                let mut values = Vec::new();
                for p in parts {
                    match p {
                        Expr::JoinedStr { values: v } => values.extend(v),
                        c @ Expr::Constant {
                            value: Constant::Str(_),
                            ..
                        } => values.push(c),
                        other => {
                            return Err(self.err(ins, format!("joins a non-string part {other:?}")))
                        }
                    }
                }
                self.push(Expr::JoinedStr { values });
            }
            ids::COPY | ids::DUP_TOP | ids::DUP_TOP_TWO => {
                // DUP_TOP_TWO (≤3.10 `a[i] += x`) is COPY 2 twice, as 3.11+ write it
                let (n, times) = match name {
                    "DUP_TOP" => (1, 1),
                    "DUP_TOP_TWO" => (2, 2),
                    _ => (raw as usize, 1),
                };
                if n == 0 {
                    return Err(self.err(ins, "COPY 0"));
                }
                for _ in 0..times {
                    let i = self
                        .stack
                        .len()
                        .checked_sub(n)
                        .ok_or_else(|| self.err(ins, "stack underflow"))?;
                    // spill mode: both copies are one object (generated code changes it in place)
                    let impure = matches!(&self.stack[i], Val::Expr(e) if !matches!(e, Expr::Name { .. } | Expr::Constant { .. }) && spill::cell_name(e).is_none());
                    if impure && self.spilling() && i >= self.spill_floor {
                        self.spill_from(0);
                    }
                    let v = self.stack[i].clone();
                    if let Val::Expr(e) = &v {
                        let same_each_time = matches!(e, Expr::Name { .. } | Expr::Constant { .. })
                            || spill::cell_name(e).is_some();
                        if !same_each_time {
                            self.impure_copies.push(e.clone());
                        } else if n == 1
                            && times == 1
                            && self.next_op.is_some_and(|o| {
                                // (a store next, or the load of the object a store goes into)
                                o.starts_with("STORE_")
                                    || matches!(
                                        o,
                                        "LOAD_FAST"
                                            | "LOAD_FAST_BORROW"
                                            | "LOAD_FAST_CHECK"
                                            | "LOAD_NAME"
                                            | "LOAD_GLOBAL"
                                            | "LOAD_DEREF"
                                    )
                            })
                        {
                            self.pure_copies.push(e.clone());
                        }
                    } else if !matches!(v, Val::Null) {
                        return Err(self.err(ins, format!("copies {v:?}")));
                    }
                    self.stack.push(v);
                }
                if name == "COPY" && raw == 2 && prev == ("SWAP", 2) {
                    self.mark_chain();
                }
            }
            ids::SWAP | ids::ROT_TWO | ids::ROT_THREE | ids::ROT_FOUR => {
                let len = self.stack.len();
                match name {
                    "SWAP" => {
                        let n = raw as usize;
                        if n < 1 || n > len {
                            return Err(self.err(ins, "stack underflow"));
                        }
                        self.stack.swap(len - 1, len - n);
                        self.moves.push((len - 1, n, Move::Swap));
                    }
                    _ => {
                        let n = match name {
                            "ROT_TWO" => 2,
                            "ROT_THREE" => 3,
                            _ => 4,
                        };
                        if n > len {
                            return Err(self.err(ins, "stack underflow"));
                        }
                        let top = self.stack.remove(len - 1);
                        self.stack.insert(len - n, top);
                        self.moves.push((len - 1, n, Move::Rot));
                        if name == "ROT_THREE" && prev.0 == "DUP_TOP" {
                            self.mark_chain();
                        }
                    }
                }
            }
            ids::LOAD_BUILD_CLASS => self.stack.push(Val::BuildClass),
            ids::POP_TOP => {
                if std::mem::take(&mut self.pending_pop_module) {
                    return Ok(None);
                }
                match self.pop(ins)? {
                    Val::Expr(e) => self.out.push(Stmt::Expr { value: e }),
                    // `import a.b.c as d`: the module, swapped under what IMPORT_FROM read of it
                    Val::Module {
                        name,
                        fromlist: None,
                        ..
                    } if self.from_import.is_none()
                        && matches!(self.stack.last(), Some(Val::Imported { via: Some((m, 1)), .. }) if *m == name) =>
                        {}
                    Val::Module { .. } => match self.from_import.take() {
                        Some((module, level, names)) => {
                            let module = (!module.is_empty()).then_some(module);
                            self.out.push(Stmt::ImportFrom {
                                module,
                                names,
                                level,
                            });
                        }
                        None => return Err(self.err(ins, "a module popped without being stored")),
                    },
                    Val::Send(_) | Val::AsyncComp(_) => {
                        return Err(self.err(ins, "an awaitable popped without its await"))
                    }
                    Val::InPlace(_) => {
                        return Err(self.err(
                            ins,
                            "an in-place operator's result popped without being stored back",
                        ))
                    }
                    // 3.13+ drop a store that a later store of the same name in one unpacking
                    // overwrites (`for op, _, _ in x`): which name is settled when it completes
                    Val::Unpacked { unpack, slot } => {
                        self.fill_unpack(ins, unpack, slot, dead_store())?
                    }
                    // a lambda evaluated for nothing (`lambda: k` as a statement): its code
                    // object is still made
                    f @ Val::Function(_) if self.is_lambda(&f) => {
                        let value = self.expr_of(ins, f)?;
                        self.out.push(Stmt::Expr { value });
                    }
                    Val::Iter(e) => self.popped_iter(e),
                    _ => {}
                }
            }
            ids::IMPORT_NAME => {
                let name = self.name(ins, raw)?;
                let fromlist = self.pop_expr(ins)?;
                let level = self.pop_expr(ins)?;
                let level = match level {
                    Expr::Constant {
                        value: Constant::Int(i),
                        ..
                    } => i.parse().unwrap_or(0),
                    _ => return Err(self.err(ins, "import level is not an int")),
                };
                let fromlist = match fromlist {
                    Expr::Constant {
                        value: Constant::None,
                        ..
                    } => None,
                    Expr::Constant {
                        value: Constant::Tuple(items),
                        ..
                    } => Some(self.str_items(ins, &items)?),
                    _ => return Err(self.err(ins, "import fromlist is not a tuple")),
                };
                if fromlist.is_some() {
                    self.from_import = Some((name.clone(), level, Vec::new()));
                }
                self.stack.push(Val::Module {
                    name,
                    fromlist,
                    level,
                });
            }
            ids::IMPORT_FROM => {
                let name = self.name(ins, raw)?;
                // (the next part of a plain `import a.b.c`'s module: the first part is bound)
                let via = match self.stack.last() {
                    Some(Val::Module {
                        name: m,
                        fromlist: None,
                        ..
                    }) => Some((m.clone(), 0)),
                    Some(Val::Imported {
                        via: Some((m, read)),
                        ..
                    }) => Some((m.clone(), *read)),
                    _ => None,
                }
                .filter(|(m, read)| m.split('.').nth(read + 1) == Some(name.as_str()))
                .map(|(m, read)| (m, read + 1));
                self.stack.push(Val::Imported { name, via });
            }
            ids::IMPORT_STAR => match self.pop(ins)? {
                Val::Module { name, level, .. } => {
                    self.from_import = None;
                    let module = (!name.is_empty()).then_some(name);
                    let names = vec![Alias {
                        name: "*".into(),
                        asname: None,
                    }];
                    self.out.push(Stmt::ImportFrom {
                        module,
                        names,
                        level,
                    });
                }
                _ => return Err(self.err(ins, "import * without a module")),
            },
            ids::UNPACK_SEQUENCE | ids::UNPACK_EX => {
                let source = match self.pop(ins)? {
                    Val::Expr(e) => Ok(e),
                    Val::Unpacked { unpack, slot } => Err((unpack, slot)),
                    other => return Err(self.err(ins, format!("unpacks {other:?}"))),
                };
                let (n, star) = if name == "UNPACK_EX" {
                    let before = (raw & 0xff) as usize;
                    (before + 1 + (raw >> 8) as usize, Some(before))
                } else {
                    (raw as usize, None)
                };
                let u = self.unpacks.len();
                self.unpacks.push(Unpack {
                    source,
                    targets: vec![None; n],
                    star,
                });
                for slot in (0..n).rev() {
                    self.stack.push(Val::Unpacked { unpack: u, slot });
                }
            }
            ids::LOAD_CONST => {
                let c = self
                    .code
                    .consts
                    .get(raw as usize)
                    .ok_or_else(|| self.err(ins, "constant index out of range"))?;
                match c {
                    Const::Code(_) => self.stack.push(Val::Code(raw as usize)),
                    Const::Value(_) | Const::Slice(_) => self.push(constant_expr(c)),
                }
            }
            ids::MAKE_FUNCTION => {
                // ≤3.10 push the qualified name after the code
                if self.code.version < framejit_bytecode::PyVersion::V3_11 {
                    self.pop_expr(ins)?;
                }
                let code = match self.pop(ins)? {
                    Val::Code(i) => i,
                    other => return Err(self.err(ins, format!("makes a function of {other:?}"))),
                };
                let mut f = FuncVal {
                    code,
                    defaults: Vec::new(),
                    kwdefaults: Vec::new(),
                    annotations: Vec::new(),
                    decorators: Vec::new(),
                };
                // 3.13+ set the attributes one by one with SET_FUNCTION_ATTRIBUTE; before, the flags
                // say which were pushed: closure (8), annotations (4), keyword defaults (2), defaults (1)
                for flag in [8u32, 4, 2, 1] {
                    if raw & flag != 0 {
                        let v = self.pop_expr(ins)?;
                        self.set_function_attribute(ins, &mut f, flag, v)?;
                    }
                }
                self.stack.push(Val::Function(Box::new(f)));
            }
            ids::SET_FUNCTION_ATTRIBUTE => {
                let mut f = match self.pop(ins)? {
                    Val::Function(f) => f,
                    other => return Err(self.err(ins, format!("sets an attribute of {other:?}"))),
                };
                if raw == 16 {
                    // 3.14: the annotations as an __annotate__ function
                    let annotate = self.pop(ins)?;
                    self.set_annotate(ins, &mut f, annotate)?;
                    self.stack.push(Val::Function(f));
                    return Ok(None);
                }
                let v = self.pop_expr(ins)?;
                self.set_function_attribute(ins, &mut f, raw, v)?;
                self.stack.push(Val::Function(f));
            }
            ids::LOAD_SMALL_INT => self.push(Expr::constant(Constant::Int(raw.to_string()))),
            ids::RETURN_CONST => {
                let c = self
                    .code
                    .consts
                    .get(raw as usize)
                    .ok_or_else(|| self.err(ins, "constant index out of range"))?;
                self.note_late_tail(true);
                self.out.push(Stmt::Return {
                    value: Some(constant_expr(c)),
                });
                return Ok(Some(Exit::Exit));
            }
            ids::RETURN_VALUE => {
                self.return_after_pop();
                let constant = matches!(self.stack.last(), Some(Val::Expr(Expr::Constant { .. })));
                self.note_late_tail(constant);
                let v = self.pop_expr(ins)?;
                self.out.push(Stmt::Return { value: Some(v) });
                return Ok(Some(Exit::Exit));
            }
            ids::LOAD_FAST | ids::LOAD_FAST_CHECK | ids::LOAD_FAST_BORROW => {
                let n = self.local(ins, raw)?;
                self.push(self.fast_load(n));
            }
            ids::LOAD_FAST_LOAD_FAST | ids::LOAD_FAST_BORROW_LOAD_FAST_BORROW => {
                let (a, b) = (self.local(ins, raw >> 4)?, self.local(ins, raw & 15)?);
                self.push(self.fast_load(a));
                self.push(self.fast_load(b));
            }
            ids::LOAD_NAME => {
                let n = self.name(ins, raw)?;
                self.push(Expr::Name {
                    id: n,
                    ctx: ExprContext::Load,
                });
            }
            ids::LOAD_GLOBAL => {
                let shift = match ins.op.arg {
                    ArgKind::Name { shift } => shift,
                    _ => 0,
                };
                let n = self.name(ins, raw >> shift)?;
                if shift > 0
                    && raw & 1 == 1
                    && self.code.version < framejit_bytecode::PyVersion::V3_13
                {
                    self.stack.push(Val::Null);
                }
                self.push(Expr::Name {
                    id: n,
                    ctx: ExprContext::Load,
                });
                if shift > 0
                    && raw & 1 == 1
                    && self.code.version >= framejit_bytecode::PyVersion::V3_13
                {
                    self.stack.push(Val::Null);
                }
            }
            ids::LOAD_CLOSURE => {
                // the cell itself (a closure tuple MAKE_FUNCTION takes; generated code also passes
                // cells on as values, as a resume function's closure): what a lambda over it holds
                let n = self.deref(ins, raw)?;
                self.push(spill::cell_of(&n));
            }
            ids::LOAD_DEREF | ids::LOAD_CLASSDEREF => {
                let n = self.deref(ins, raw)?;
                self.push(Expr::Name {
                    id: n,
                    ctx: ExprContext::Load,
                });
            }
            ids::LOAD_ATTR | ids::LOAD_METHOD => {
                let shift = match ins.op.arg {
                    ArgKind::Name { shift } => shift,
                    _ => 0,
                };
                let attr = self.name(ins, raw >> shift)?;
                let obj = self.pop_expr(ins)?;
                let e = Expr::Attribute {
                    value: Box::new(obj),
                    attr,
                    ctx: ExprContext::Load,
                };
                let method = name == "LOAD_METHOD" || (shift > 0 && raw & 1 == 1);
                if method {
                    // method form: [meth, self] (3.11) or [NULL-or-meth, self-or-callable]; keep one callable
                    self.stack.push(Val::Null);
                }
                self.push(e);
            }
            ids::STORE_FAST | ids::STORE_NAME | ids::STORE_GLOBAL | ids::STORE_DEREF => {
                let n = match name {
                    "STORE_FAST" => self.local(ins, raw)?,
                    "STORE_DEREF" => self.deref(ins, raw)?,
                    _ => self.name(ins, raw)?,
                };
                if was_copy && self.walrus(&n) {
                    return Ok(None);
                }
                self.store(
                    ins,
                    Expr::Name {
                        id: n,
                        ctx: ExprContext::Store,
                    },
                )?;
            }
            ids::STORE_ATTR => {
                let attr = self.name(ins, raw)?;
                let obj = self.pop_expr(ins)?;
                self.store(
                    ins,
                    Expr::Attribute {
                        value: Box::new(obj),
                        attr,
                        ctx: ExprContext::Store,
                    },
                )?;
            }
            ids::STORE_SUBSCR => {
                let key = self.pop_expr(ins)?;
                let obj = self.pop_expr(ins)?;
                self.store(
                    ins,
                    Expr::Subscript {
                        value: Box::new(obj),
                        slice: Box::new(key),
                        ctx: ExprContext::Store,
                    },
                )?;
            }
            ids::DELETE_FAST | ids::DELETE_NAME | ids::DELETE_GLOBAL | ids::DELETE_DEREF => {
                let n = match name {
                    "DELETE_FAST" => self.local(ins, raw)?,
                    "DELETE_DEREF" => self.deref(ins, raw)?,
                    _ => self.name(ins, raw)?,
                };
                let target = Expr::Name {
                    id: n,
                    ctx: ExprContext::Del,
                };
                if !self.unbound_before(&target)
                    && self.pending_read(&target, None)
                    && !self.materialize(&target)
                {
                    return Err(
                        self.err(ins, "a name deleted while a read of it waits on the stack")
                    );
                }
                // the compiler's unbinding after the value of a `return` that reads the name was
                // evaluated: marked, so that only the structurer's removal of the unbinding lets it
                // through (kept, it would read the name after its deletion)
                // (≤3.10 checks the unbinding as a finally body's copies: legacy_blocks.rs)
                let read_before = self.code.bytecode.version.minor() >= 11
                    && self.unbound_before(&target)
                    && self.pending_read(&target, None);
                self.out.push(Stmt::Delete {
                    targets: vec![target],
                });
                if read_before {
                    self.out.push(Stmt::Expr {
                        value: Expr::name(UNBOUND_READ),
                    });
                }
            }
            // 3.14: subscription is BINARY_OP's `[]`
            ids::BINARY_OP if Self::named(ins, raw) == Some("[]") => self.subscript(ins)?,
            ids::BINARY_OP => {
                let text =
                    Self::named(ins, raw).ok_or_else(|| self.err(ins, "unknown operator"))?;
                let (op, inplace) = bin_op(text)
                    .ok_or_else(|| self.err(ins, format!("unknown operator {text}")))?;
                let right = self.pop_expr(ins)?;
                let left = self.pop_expr(ins)?;
                self.push_bin_op(left, op, right, inplace);
            }
            ids::BINARY_SUBSCR => {
                let key = self.pop_expr(ins)?;
                let obj = self.pop_expr(ins)?;
                self.push(Expr::Subscript {
                    value: Box::new(obj),
                    slice: Box::new(key),
                    ctx: ExprContext::Load,
                });
            }
            ids::UNARY_NEGATIVE | ids::UNARY_POSITIVE | ids::UNARY_NOT | ids::UNARY_INVERT => {
                let v = self.pop_expr(ins)?;
                let op = match name {
                    "UNARY_NEGATIVE" => UnaryOp::USub,
                    "UNARY_POSITIVE" => UnaryOp::UAdd,
                    "UNARY_NOT" => UnaryOp::Not,
                    _ => UnaryOp::Invert,
                };
                let v = if op == UnaryOp::Not { truth(v) } else { v };
                self.push(Expr::UnaryOp {
                    op,
                    operand: Box::new(v),
                });
            }
            ids::COMPARE_OP | ids::IS_OP | ids::CONTAINS_OP => {
                let right = self.pop_expr(ins)?;
                let left = self.pop_expr(ins)?;
                let op = match name {
                    "IS_OP" => {
                        if raw & 1 == 1 {
                            CmpOp::IsNot
                        } else {
                            CmpOp::Is
                        }
                    }
                    "CONTAINS_OP" => {
                        if raw & 1 == 1 {
                            CmpOp::NotIn
                        } else {
                            CmpOp::In
                        }
                    }
                    _ => Self::named(ins, raw)
                        .and_then(cmp_op)
                        .ok_or_else(|| self.err(ins, "unknown comparison"))?,
                };
                let right = match op {
                    CmpOp::In | CmpOp::NotIn => set_display(right),
                    _ => right,
                };
                self.push(Expr::Compare {
                    left: Box::new(left),
                    ops: vec![op],
                    comparators: vec![right],
                });
            }
            ids::BUILD_TUPLE | ids::BUILD_LIST | ids::BUILD_SET => {
                self.mark_class_body_arg(raw as usize);
                let elts = self.pop_n(ins, raw as usize)?;
                self.push(match name {
                    "BUILD_TUPLE" => Expr::Tuple {
                        elts,
                        ctx: ExprContext::Load,
                    },
                    "BUILD_LIST" => Expr::List {
                        elts,
                        ctx: ExprContext::Load,
                    },
                    _ => Expr::Set { elts },
                });
            }
            ids::BUILD_MAP => {
                let flat = self.pop_n(ins, 2 * raw as usize)?;
                let (mut keys, mut values) = (Vec::new(), Vec::new());
                for pair in flat.chunks(2) {
                    keys.push(Some(pair[0].clone()));
                    values.push(pair[1].clone());
                }
                self.push(Expr::Dict { keys, values });
            }
            ids::BUILD_CONST_KEY_MAP => {
                let keys = self.pop_expr(ins)?;
                let values = self.pop_n(ins, raw as usize)?;
                let keys = match keys {
                    Expr::Constant {
                        value: Constant::Tuple(k),
                        ..
                    } => k,
                    _ => return Err(self.err(ins, "keys are not a constant tuple")),
                };
                self.push(Expr::Dict {
                    keys: keys.into_iter().map(|k| Some(Expr::constant(k))).collect(),
                    values,
                });
            }
            ids::LIST_TO_TUPLE => {
                let v = self.pop_expr(ins)?;
                self.push(match v {
                    Expr::List { elts, .. } => Expr::Tuple {
                        elts,
                        ctx: ExprContext::Load,
                    },
                    other => other,
                });
            }
            ids::LIST_EXTEND | ids::SET_UPDATE => {
                let items = self.pop_expr(ins)?;
                let items_value = items.clone();
                let idx = self
                    .stack
                    .len()
                    .checked_sub(raw as usize)
                    .ok_or_else(|| self.err(ins, "stack underflow"))?;
                let spread = match items {
                    Expr::Constant {
                        value: Constant::Tuple(v),
                        ..
                    }
                    | Expr::Constant {
                        value: Constant::FrozenSet(v),
                        ..
                    } => v.into_iter().map(Expr::constant).collect(),
                    Expr::Tuple { elts, .. } | Expr::List { elts, .. } => elts,
                    other => vec![Expr::Starred {
                        value: Box::new(other),
                        ctx: ExprContext::Load,
                    }],
                };
                let spilling = self.spilling();
                match self.stack.get_mut(idx) {
                    Some(Val::Expr(Expr::List { elts, .. }))
                    | Some(Val::Expr(Expr::Set { elts })) => elts.extend(spread),
                    _ if spilling => {
                        let method = if name == "LIST_EXTEND" {
                            "extend"
                        } else {
                            "update"
                        };
                        self.update_in_place(ins, idx, method, items_value)?;
                    }
                    _ => return Err(self.err(ins, "extends something that is not a list or set")),
                }
            }
            ids::BUILD_SLICE => {
                let parts = self.pop_n(ins, raw as usize)?;
                let opt = |e: &Expr| match e {
                    Expr::Constant {
                        value: Constant::None,
                        ..
                    } => None,
                    other => Some(Box::new(other.clone())),
                };
                self.push(Expr::Slice {
                    lower: parts.first().and_then(opt),
                    upper: parts.get(1).and_then(opt),
                    step: parts.get(2).and_then(opt),
                });
            }
            ids::KW_NAMES => {
                let names = match self.code.consts.get(raw as usize) {
                    Some(Const::Value(Constant::Tuple(items))) => self.str_items(ins, items)?,
                    _ => return Err(self.err(ins, "keyword names are not a tuple of strings")),
                };
                self.stack.push(Val::KwNames(names));
            }
            ids::PRECALL => {}
            ids::CALL | ids::CALL_FUNCTION | ids::CALL_METHOD | ids::CALL_KW => {
                let kwnames = if name == "CALL_KW" {
                    match self.pop_expr(ins)? {
                        Expr::Constant {
                            value: Constant::Tuple(items),
                            ..
                        } => self.str_items(ins, &items)?,
                        _ => return Err(self.err(ins, "CALL_KW without a tuple of names")),
                    }
                } else if matches!(self.stack.last(), Some(Val::KwNames(_))) {
                    // 3.11-3.12: KW_NAMES comes after the arguments, just before the call
                    match self.stack.pop() {
                        Some(Val::KwNames(k)) => k,
                        _ => Vec::new(),
                    }
                } else {
                    Vec::new()
                };
                let mut vals = Vec::with_capacity(raw as usize);
                for _ in 0..raw {
                    vals.push(self.pop(ins)?);
                }
                vals.reverse();
                // 3.11-3.12: [NULL, callable] or [callable, self]; 3.13+: [callable, NULL] or
                // [callable, self]; ≤3.10 CALL_FUNCTION: the callable alone.
                let func = if name == "CALL" || name == "CALL_KW" {
                    let x = self.pop(ins)?;
                    let y = self.pop(ins)?;
                    if y == Val::WithExit || x == Val::WithExit {
                        // the with statement's exit call __exit__(None, None, None)
                        self.push(Expr::name(WITH_EXIT));
                        return Ok(None);
                    }
                    match (y, x) {
                        (Val::Null, f) | (f, Val::Null) => f,
                        (f, this) => {
                            vals.insert(0, this);
                            f
                        }
                    }
                } else if matches!(self.stack.last(), Some(Val::WithExit)) {
                    // ≤3.10: the with statement's exit call __exit__(None, None, None)
                    let none = Val::Expr(Expr::constant(Constant::None));
                    if name != "CALL_FUNCTION" || vals.len() != 3 || vals.iter().any(|v| *v != none)
                    {
                        return Err(self.err(ins, "a call of a with statement's __exit__"));
                    }
                    self.stack.pop();
                    self.push(Expr::name(WITH_EXIT));
                    return Ok(None);
                } else {
                    let f = self.pop(ins)?;
                    if matches!(self.stack.last(), Some(Val::Null)) {
                        self.stack.pop();
                    }
                    f
                };
                if let (Val::Function(f), [Val::Iter(it)]) = (&func, vals.as_slice()) {
                    if let Some(Const::Code(code)) = self.code.consts.get(f.code) {
                        if matches!(
                            code.name.as_str(),
                            "<listcomp>" | "<setcomp>" | "<dictcomp>" | "<genexpr>"
                        ) {
                            let e = crate::comprehension(code, it.clone()).map_err(|e| {
                                self.err(ins, format!("{}: {}", code.name, e.message))
                            })?;
                            // an async list/set/dict comprehension is a coroutine the caller awaits
                            if code.flags & crate::input::flags::COROUTINE != 0 {
                                self.stack.push(Val::AsyncComp(e));
                                return Ok(None);
                            }
                            self.push(e);
                            return Ok(None);
                        }
                    }
                }
                if func == Val::BuildClass {
                    return self.build_class(ins, vals, kwnames).map(|()| None);
                }
                // 3.12+ `def f[T]` / `class C[T]` / `type A[T]`: the call of its type-parameter scope
                if let Val::Function(f) = &func {
                    if self.is_type_param_scope(f) {
                        return self
                            .type_param_scope_call(ins, f, vals, &kwnames)
                            .map(|()| None);
                    }
                }
                let func = self.expr_of(ins, func)?;
                // `@decorator` over a class
                if kwnames.is_empty() && vals.len() == 1 {
                    if let Some(Val::Class(c)) = vals.first() {
                        let mut c = c.clone();
                        c.decorators.insert(0, func);
                        self.stack.push(Val::Class(c));
                        return Ok(None);
                    }
                }
                // `@decorator` over a def or class with type parameters
                if kwnames.is_empty() && vals.len() == 1 {
                    if let Some(Val::Def(d)) = vals.first() {
                        let mut d = d.clone();
                        match d.as_mut() {
                            Stmt::FunctionDef(f) | Stmt::AsyncFunctionDef(f) => {
                                f.decorator_list.insert(0, func)
                            }
                            Stmt::ClassDef(c) => c.decorator_list.insert(0, func),
                            _ => {
                                return Err(self.err(ins, "decorates a statement that is not a def"))
                            }
                        }
                        self.stack.push(Val::Def(d));
                        return Ok(None);
                    }
                }
                // `@decorator` over a def: a call of one function value and nothing else
                if kwnames.is_empty() && vals.len() == 1 {
                    if let Some(Val::Function(f)) = vals.first() {
                        let is_lambda = matches!(self.code.consts.get(f.code), Some(Const::Code(c)) if c.name == "<lambda>");
                        if !is_lambda {
                            let mut f = f.clone();
                            f.decorators.insert(0, func);
                            self.stack.push(Val::Function(f));
                            return Ok(None);
                        }
                    }
                }
                let mut args = Vec::with_capacity(vals.len());
                for v in vals {
                    args.push(self.expr_of(ins, v)?);
                }
                let keywords = split_keywords(&mut args, kwnames);
                self.push(Expr::Call {
                    func: Box::new(func),
                    args,
                    keywords,
                });
            }
            ids::RAISE_VARARGS => {
                let (exc, cause) = match raw {
                    0 => (None, None),
                    1 => (Some(self.pop_expr(ins)?), None),
                    _ => {
                        let c = self.pop_expr(ins)?;
                        (Some(self.pop_expr(ins)?), Some(c))
                    }
                };
                self.out.push(Stmt::Raise { exc, cause });
                return Ok(Some(Exit::Exit));
            }
            ids::POP_JUMP_IF_FALSE
            | ids::POP_JUMP_FORWARD_IF_FALSE
            | ids::POP_JUMP_BACKWARD_IF_FALSE
            | ids::POP_JUMP_IF_TRUE
            | ids::POP_JUMP_FORWARD_IF_TRUE
            | ids::POP_JUMP_BACKWARD_IF_TRUE
            | ids::POP_JUMP_IF_NONE
            | ids::POP_JUMP_FORWARD_IF_NONE
            | ids::POP_JUMP_BACKWARD_IF_NONE
            | ids::POP_JUMP_IF_NOT_NONE
            | ids::POP_JUMP_FORWARD_IF_NOT_NONE
            | ids::POP_JUMP_BACKWARD_IF_NOT_NONE => {
                let v = self.pop_expr(ins)?;
                let none = || Box::new(Expr::constant(Constant::None));
                let (test, jump_if) = if name.ends_with("_NOT_NONE") {
                    (
                        Expr::Compare {
                            left: Box::new(v),
                            ops: vec![CmpOp::IsNot],
                            comparators: vec![*none()],
                        },
                        true,
                    )
                } else if name.ends_with("_NONE") {
                    (
                        Expr::Compare {
                            left: Box::new(v),
                            ops: vec![CmpOp::Is],
                            comparators: vec![*none()],
                        },
                        true,
                    )
                } else {
                    (truth(v), name.ends_with("_TRUE"))
                };
                // 3.12+ `a and b`: COPY 1 then a conditional jump on the copy; the original stays
                let copy = was_copy
                    && matches!(self.stack.last(), Some(Val::Expr(e)) if Some(e) == self.impure_copies.last().or(Some(e)));
                if copy {
                    if let Some(Val::Expr(top)) = self.stack.last() {
                        if let Some(k) = self.impure_copies.iter().rposition(|c| c == top) {
                            self.impure_copies.remove(k);
                        }
                    }
                }
                return Ok(Some(Exit::Branch {
                    test,
                    jump_if,
                    keep: false,
                    copy,
                }));
            }
            ids::JUMP_IF_TRUE_OR_POP | ids::JUMP_IF_FALSE_OR_POP => {
                let test = self.pop_expr(ins)?;
                return Ok(Some(Exit::Branch {
                    test,
                    jump_if: name == "JUMP_IF_TRUE_OR_POP",
                    keep: true,
                    copy: false,
                }));
            }
            ids::TO_BOOL => {
                // 3.13+: the truth value as a bool. A conditional jump strips it again (a test is a
                // truth value anyway); a value used otherwise is `not not v`, which compiles to TO_BOOL
                let v = self.pop_expr(ins)?;
                let v = match v {
                    e @ Expr::UnaryOp {
                        op: UnaryOp::Not, ..
                    } => e,
                    e => not(not(e)),
                };
                self.push(v);
            }
            // the end of a for loop: pop what FOR_ITER's exit left (iterator, 3.12+ a value), no statement
            ids::END_FOR | ids::POP_ITER => {
                let n = -ins.op.stack_effect(raw, Some(false));
                for _ in 0..n.max(0) {
                    if let Val::Iter(e) = self.pop(ins)? {
                        self.popped_iter(e);
                    }
                }
            }
            ids::GET_ITER => {
                let v = set_display(self.pop_expr(ins)?);
                self.stack.push(Val::Iter(v));
            }
            ids::FOR_ITER => {
                let iter = self.pop_expr(ins)?;
                return Ok(Some(Exit::ForIter { iter }));
            }
            ids::JUMP_FORWARD
            | ids::JUMP_BACKWARD
            | ids::JUMP_ABSOLUTE
            | ids::JUMP_BACKWARD_NO_INTERRUPT => {
                return Ok(Some(Exit::Flow));
            }
            _ if legacy_bin_op(name).is_some() => {
                let (op, inplace) =
                    legacy_bin_op(name).ok_or_else(|| self.err(ins, "unknown operator"))?;
                let right = self.pop_expr(ins)?;
                let left = self.pop_expr(ins)?;
                self.push_bin_op(left, op, right, inplace);
            }
            _ if awaits::handles(name) => return self.async_step(ins, raw),
            _ if py38::handles(name) => return self.step_py38(ins, raw),
            _ => return self.step_py312(ins, raw),
        }
        Ok(None)
    }
}

/// The middle operand of a chained comparison, used by its second comparison.
pub const CHAIN_MID: &str = "\u{0}chain_mid";

fn chain_mid(m: Expr) -> Expr {
    Expr::Call {
        func: Box::new(Expr::name(CHAIN_MID)),
        args: vec![m],
        keywords: Vec::new(),
    }
}

/// `a op1 m` and then `CHAIN_MID(m) op2 c ...`: the chained comparison `a op1 m op2 c ...`.
pub fn merge_chain(first: &Expr, next: &Expr) -> Option<Expr> {
    let Expr::Compare {
        left,
        ops,
        comparators,
    } = first
    else {
        return None;
    };
    let Expr::Compare {
        left: left2,
        ops: ops2,
        comparators: comps2,
    } = next
    else {
        return None;
    };
    let Expr::Call { func, args, .. } = left2.as_ref() else {
        return None;
    };
    let is_mid = matches!(func.as_ref(), Expr::Name { id, .. } if id == CHAIN_MID);
    if !is_mid || args.len() != 1 || comparators.last() != args.first() {
        return None;
    }
    let mut ops = ops.clone();
    ops.extend(ops2.iter().copied());
    let mut comparators = comparators.clone();
    comparators.extend(comps2.iter().cloned());
    Some(Expr::Compare {
        left: left.clone(),
        ops,
        comparators,
    })
}

/// Markers the structurer reads: the exception being handled, a CHECK_EXC_MATCH test, a RERAISE.
pub const EXC: &str = "\u{0}exception";
pub const EXC_MATCH: &str = "\u{0}exc_match";
pub const RERAISE: &str = "\u{0}reraise";
pub const WITH_ENTER: &str = "\u{0}with_enter";
pub const WITH_EXIT: &str = "\u{0}with_exit";
pub const POP_EXCEPT: &str = "\u{0}pop_except";
/// After the compiler's `name = None; del name` (an `except ... as name:` being left) whose name a
/// value evaluated before it reads: the structurer removes it with the unbinding.
pub const UNBOUND_READ: &str = "\u{0}unbound_read";
/// LIST_APPEND / SET_ADD / MAP_ADD in a comprehension's code: what the comprehension collects.
pub const COLLECT: &str = "\u{0}collect";
/// The targets a (possibly nested) assignment target stores, innermost names and attributes.
fn store_targets(t: &Expr, out: &mut Vec<Expr>) {
    match t {
        Expr::Tuple { elts, .. } | Expr::List { elts, .. } => {
            for e in elts {
                store_targets(e, out);
            }
        }
        Expr::Starred { value, .. } => store_targets(value, out),
        other => out.push(other.clone()),
    }
}

/// A class body's function in the arguments of `__build_class__` with unpacking (then its index
/// in `co_consts`), and the call itself.
pub const CLASS_BODY: &str = "\u{0}class_body:";
/// LOAD_ASSERTION_ERROR: the `AssertionError` an `assert` raises (not a name lookup).
pub const ASSERTION_ERROR: &str = "\u{0}AssertionError";

/// The last arguments are keyword arguments named by `names`: split them off as keywords.
/// A private name (`__x`, not `__x__`) as the compiler stores it inside class `class`: `_class__x`.
fn mangle(class: &str, name: &str) -> Option<String> {
    let stripped = class.trim_start_matches('_');
    let private = name.starts_with("__") && !name.ends_with("__") && !name.contains('.');
    (private && !stripped.is_empty()).then(|| format!("_{stripped}{name}"))
}

fn not(e: Expr) -> Expr {
    Expr::UnaryOp {
        op: UnaryOp::Not,
        operand: Box::new(e),
    }
}

/// `not not v` (what TO_BOOL makes of `v`) where only its truth matters: `v`.
pub fn truth(e: Expr) -> Expr {
    match e {
        Expr::UnaryOp {
            op: UnaryOp::Not,
            operand,
        } => match *operand {
            Expr::UnaryOp {
                op: UnaryOp::Not,
                operand: inner,
            } => *inner,
            other => not(other),
        },
        other => other,
    }
}

fn split_keywords(args: &mut Vec<Expr>, names: Vec<String>) -> Vec<Keyword> {
    let n = names.len().min(args.len());
    let values = args.split_off(args.len() - n);
    names
        .into_iter()
        .zip(values)
        .map(|(k, v)| Keyword {
            arg: Some(k),
            value: v,
        })
        .collect()
}

/// `a[start:end]` of BINARY_SLICE / STORE_SLICE (None bounds left out).
fn slice_of(start: Expr, end: Expr) -> Expr {
    let opt = |e: Expr| match e {
        Expr::Constant {
            value: Constant::None,
            ..
        } => None,
        other => Some(Box::new(other)),
    };
    Expr::Slice {
        lower: opt(start),
        upper: opt(end),
        step: None,
    }
}

/// A format spec as an f-string part list (a constant spec is one constant part).
fn as_joined(e: Expr) -> Expr {
    match e {
        j @ Expr::JoinedStr { .. } => j,
        other => Expr::JoinedStr {
            values: vec![other],
        },
    }
}

fn conversion_of(bits: u32) -> Conversion {
    match bits {
        1 => Conversion::Str,
        2 => Conversion::Repr,
        3 => Conversion::Ascii,
        _ => Conversion::None,
    }
}

/// The load form of a store target (to recognise `x = x + 1` written as `x += 1`).
fn load_of(target: &Expr) -> Expr {
    match target {
        Expr::Name { id, .. } => Expr::Name {
            id: id.clone(),
            ctx: ExprContext::Load,
        },
        Expr::Attribute { value, attr, .. } => Expr::Attribute {
            value: value.clone(),
            attr: attr.clone(),
            ctx: ExprContext::Load,
        },
        Expr::Subscript { value, slice, .. } => Expr::Subscript {
            value: value.clone(),
            slice: slice.clone(),
            ctx: ExprContext::Load,
        },
        other => other.clone(),
    }
}
