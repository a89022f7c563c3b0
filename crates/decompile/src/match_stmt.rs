//! `match` statements (3.10+). The subject stays on the stack while each case's pattern tests it, so
//! a match is not a chain of `if`s: each case is decoded by running its instructions over symbolic
//! values that stand for parts of the subject (an item, a mapping value, an attribute, a length),
//! following both arms of every test, until control either reaches the case's body (the stack back
//! below the subject) or fails (the stack back to the subject for a case that copied it, to nothing
//! for the last case; every failing test of a case must reach the same place, the next case). The
//! tests on the way to the body and the names stored give the pattern; several ways to the same body
//! are the alternatives of an or-pattern. Anything else is refused.

use super::{or_pass, LoopCtx, Structurer};
use crate::ast::{CmpOp, Constant, Expr, MatchCase, Pattern, Stmt};
use crate::error::DecompileError;
use crate::exprs::{Sim, Val};
use crate::flow::EdgeKind;
use framejit_bytecode::opcode::Flow;
use framejit_bytecode::{Arg, Instr, Item, PyVersion};

/// Prefix of the names that stand for symbolic values on the stack.
const PH: &str = "\u{0}pat";
/// Bounds on the exploration of one case (paths and instructions).
const MAX_PATHS: usize = 64;
const MAX_STEPS: usize = 20_000;

/// A part of the subject.
#[derive(Clone, Debug, PartialEq)]
enum Path {
    Root,
    /// Item of a sequence: from the start (>= 0) or from the end (< 0).
    Item(Box<Path>, i64),
    /// The starred part of a sequence.
    Star(Box<Path>),
    /// The value of the mapping for its i-th key.
    Key(Box<Path>, usize),
    /// The i-th attribute a class pattern extracted (positional first, then keywords).
    Attr(Box<Path>, usize),
}

impl Path {
    /// Is this `q` or a part of it?
    fn is_within(&self, q: &Path) -> bool {
        let mut p = self;
        loop {
            if p == q {
                return true;
            }
            p = match p {
                Path::Root => return false,
                Path::Item(b, _) | Path::Star(b) | Path::Key(b, _) | Path::Attr(b, _) => b,
            };
        }
    }

    fn sub(&self, f: impl FnOnce(Box<Path>) -> Path) -> Path {
        f(Box::new(self.clone()))
    }
}

/// A symbolic value (stands on the stack as a placeholder name).
#[derive(Clone, Debug, PartialEq)]
enum Abs {
    Subj(Path),
    Len(Path),
    Test(Pred),
    ClassRes {
        path: Path,
        cls: Expr,
        npos: usize,
        kw: Vec<String>,
    },
    KeysRes {
        path: Path,
        keys: Vec<Expr>,
    },
    EmptyDict,
    Rest {
        path: Path,
        removed: Vec<Expr>,
    },
}

/// A test a pattern makes; it holds when the pattern can match.
#[derive(Clone, Debug, PartialEq)]
enum Pred {
    IsSeq(Path),
    IsMap(Path),
    LenEq(Path, i64),
    LenGe(Path, i64),
    Eq(Path, Expr),
    Is(Path, Constant),
    Class {
        path: Path,
        cls: Expr,
        npos: usize,
        kw: Vec<String>,
    },
    Keys {
        path: Path,
        keys: Vec<Expr>,
    },
    /// The sequence was unpacked: UNPACK_SEQUENCE (n, None) or UNPACK_EX (before, Some(after)).
    Unpack(Path, usize, Option<usize>),
}

impl Pred {
    fn path(&self) -> &Path {
        match self {
            Pred::IsSeq(p)
            | Pred::IsMap(p)
            | Pred::LenEq(p, _)
            | Pred::LenGe(p, _)
            | Pred::Eq(p, _)
            | Pred::Is(p, _)
            | Pred::Unpack(p, _, _)
            | Pred::Class { path: p, .. }
            | Pred::Keys { path: p, .. } => p,
        }
    }
}

/// What a name was bound to.
#[derive(Clone, Debug, PartialEq)]
enum Bound {
    Path(Path),
    Rest(Path, Vec<Expr>),
}

type Pos = (usize, usize);

/// The statements a match comes out as (those before it in its block, then the match) and the
/// block where control goes on after it.
type MatchOut = (Vec<Stmt>, Option<usize>);

#[derive(Clone)]
struct PathState {
    pos: Pos,
    stack: Vec<Val>,
    table: Vec<Abs>,
    conds: Vec<Pred>,
    binds: Vec<(String, Bound)>,
    guard: Vec<Expr>,
    seen: Vec<usize>,
    /// The tuples of keys MATCH_KEYS looked up (dropped afterwards).
    keys_used: Vec<Expr>,
}

struct Success {
    body: Pos,
    conds: Vec<Pred>,
    binds: Vec<(String, Bound)>,
    guard: Vec<Expr>,
}

struct CaseOut {
    start: Pos,
    /// The case ran a MATCH_* or GET_LEN instruction (a test no `if` compiles to).
    matchy: bool,
    pattern: Pattern,
    guard: Option<Expr>,
    body: Pos,
    /// Other copies of the body (3.12+ duplicate small exit blocks per or-alternative).
    dups: Vec<Pos>,
    fail: Option<Pos>,
    seen: Vec<usize>,
}

fn ph_index(v: &Val) -> Option<usize> {
    match v {
        Val::Expr(Expr::Name { id, .. }) => id.strip_prefix(PH).and_then(|s| s.parse().ok()),
        _ => None,
    }
}

fn expr_index(e: &Expr) -> Option<usize> {
    match e {
        Expr::Name { id, .. } => id.strip_prefix(PH).and_then(|s| s.parse().ok()),
        _ => None,
    }
}

fn has_ph(e: &Expr) -> bool {
    format!("{e:?}").contains("\\0pat")
}

fn int_of(e: &Expr) -> Option<i64> {
    match e {
        Expr::Constant {
            value: Constant::Int(s),
            ..
        } => s.parse().ok(),
        _ => None,
    }
}

/// The items of a tuple of keys or names (a constant tuple, or BUILD_TUPLE).
fn tuple_items(e: &Expr) -> Option<Vec<Expr>> {
    match e {
        Expr::Constant {
            value: Constant::Tuple(items),
            ..
        } => Some(
            items
                .iter()
                .map(|c| Expr::Constant {
                    value: c.clone(),
                    kind: None,
                })
                .collect(),
        ),
        Expr::Tuple { elts, .. } => Some(elts.clone()),
        _ => None,
    }
}

impl<'a> Structurer<'a> {
    fn instr_at(&self, p: Pos) -> Option<&'a Instr> {
        // (the block's p.1-th instruction in place: a block lists instruction items only)
        let i = *self.cfg.blocks.get(p.0)?.instrs.get(p.1)?;
        match self.code.bytecode.items.get(i) {
            Some(Item::Instr(ins)) => Some(ins),
            _ => None,
        }
    }

    /// The position itself, or the start of the next block where `p` is past its block's end.
    fn norm(&self, mut p: Pos) -> Option<Pos> {
        for _ in 0..self.cfg.blocks.len() + 1 {
            if p.1 < self.cfg.blocks[p.0].instrs.len() {
                return Some(p);
            }
            p = (self.succ(p.0, EdgeKind::Fall)?, 0);
        }
        None
    }

    /// Is `start` (reached with `depth` values on the stack, where a test is false) a failure of
    /// the case: only pops (and jumps) down to `fail_depth`, arriving at `known` (the case's
    /// failure point, where one was found)? Returns the failure point.
    fn fail_side(
        &self,
        start: Pos,
        mut depth: usize,
        fail_depth: usize,
        known: Option<Pos>,
    ) -> Option<Pos> {
        let mut p = self.norm(start)?;
        for _ in 0..10_000 {
            let ins = self.instr_at(p)?;
            match ins.op.name {
                "POP_TOP" if depth > fail_depth => depth -= 1,
                "NOP" | "NOT_TAKEN" => {}
                _ if ins.op.flow == Flow::Jump => {
                    p = (self.succ(p.0, EdgeKind::Jump)?, 0);
                    p = self.norm(p)?;
                    continue;
                }
                _ => break,
            }
            p = self.norm((p.0, p.1 + 1))?;
        }
        if depth != fail_depth {
            return None;
        }
        match known {
            // (3.12+ copy a short exit into each way that reaches it: the guard's failure and the
            // pattern's can each end in their own copy of the code after the match)
            Some(k) if k != p && !self.same_exit_from(k, p) => None,
            Some(k) => Some(k),
            None => Some(p),
        }
    }

    /// Are the code from `a` and from `b` to the end of their blocks the same, each leaving the
    /// code object (nothing after it): two copies of one exit?
    fn same_exit_from(&self, a: Pos, b: Pos) -> bool {
        let leaves = |x: usize| {
            self.cfg.blocks[x]
                .succs
                .iter()
                .all(|e| e.kind == EdgeKind::Exception)
        };
        let copy = match (a.1, b.1) {
            (_, 0) => self.copy_of_block(a.0, a.1, b.0),
            (0, _) => self.copy_of_block(b.0, b.1, a.0),
            _ => false,
        };
        copy && leaves(a.0) && leaves(b.0)
    }

    /// Where an or-pattern's alternative fails over to the next: the part of the subject the next
    /// alternative copies to test (after the failed one's values are dropped).
    fn next_alternative(&self, st: &PathState) -> Option<Path> {
        let mut p = self.norm(st.pos)?;
        let mut depth = st.stack.len();
        for _ in 0..10_000 {
            let ins = self.instr_at(p)?;
            match ins.op.name {
                "POP_TOP" => depth = depth.checked_sub(1)?,
                "NOP" | "NOT_TAKEN" => {}
                "COPY" | "DUP_TOP" => {
                    if ins.op.name == "COPY" && ins.arg != Arg::Raw(1) {
                        return None;
                    }
                    let top = st.stack.get(depth.checked_sub(1)?)?;
                    return match self.abs(st, top) {
                        Some(Abs::Subj(q)) => Some(q.clone()),
                        _ => None,
                    };
                }
                _ if ins.op.flow == Flow::Jump => {
                    p = self.norm((self.succ(p.0, EdgeKind::Jump)?, 0))?;
                    continue;
                }
                _ => return None,
            }
            p = self.norm((p.0, p.1 + 1))?;
        }
        None
    }

    fn mk(&self, st: &mut PathState, a: Abs) -> Val {
        st.table.push(a);
        Val::Expr(Expr::name(&format!("{PH}{}", st.table.len() - 1)))
    }

    fn abs<'s>(&self, st: &'s PathState, v: &Val) -> Option<&'s Abs> {
        ph_index(v).and_then(|i| st.table.get(i))
    }

    fn pop_val(&self, st: &mut PathState, floor: usize) -> Result<Val, DecompileError> {
        if st.stack.len() <= floor {
            return Err(self.err("a pattern pops below its subject"));
        }
        st.stack
            .pop()
            .ok_or_else(|| self.err("a pattern pops below its subject"))
    }

    /// A test on a symbolic value or an expression: the predicate (or the guard's expression) and
    /// whether it holds when the value tested is true.
    fn test_of(
        &self,
        st: &PathState,
        v: &Expr,
    ) -> Result<(Result<Pred, Expr>, bool), DecompileError> {
        if let Some(i) = expr_index(v) {
            return match st.table.get(i) {
                Some(Abs::Test(p)) => Ok((Ok(p.clone()), true)),
                _ => Err(self.err("a pattern tests a value it does not know")),
            };
        }
        if !has_ph(v) {
            return Ok((Err(v.clone()), true));
        }
        if let Expr::Compare {
            left,
            ops,
            comparators,
        } = v
        {
            if let ([op], [right], Some(i)) =
                (ops.as_slice(), comparators.as_slice(), expr_index(left))
            {
                if !has_ph(right) {
                    match (st.table.get(i), op) {
                        (Some(Abs::Subj(p)), CmpOp::Eq) => {
                            return Ok((Ok(Pred::Eq(p.clone(), right.clone())), true))
                        }
                        (Some(Abs::Subj(p)), CmpOp::Is | CmpOp::IsNot) => {
                            if let Expr::Constant {
                                value: c @ (Constant::None | Constant::Bool(_)),
                                ..
                            } = right
                            {
                                return Ok((Ok(Pred::Is(p.clone(), c.clone())), *op == CmpOp::Is));
                            }
                        }
                        (Some(Abs::Len(p)), CmpOp::Eq | CmpOp::GtE) => {
                            if let Some(n) = int_of(right) {
                                return Ok((
                                    Ok(if *op == CmpOp::Eq {
                                        Pred::LenEq(p.clone(), n)
                                    } else {
                                        Pred::LenGe(p.clone(), n)
                                    }),
                                    true,
                                ));
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        Err(self.err("a test in a pattern this decompiler does not know"))
    }

    /// Decode one case from `start` with the subject on top of `stack`; `fail_depth` is the stack
    /// depth a failure leaves (the subject kept or not).
    fn decode_case(
        &self,
        start: Pos,
        stack: Vec<Val>,
        table: Vec<Abs>,
        fail_depth: usize,
    ) -> Result<CaseOut, DecompileError> {
        let body_depth = stack.len() - 1;
        let copying = fail_depth > body_depth;
        let mut work = vec![PathState {
            pos: start,
            stack,
            table,
            conds: Vec::new(),
            binds: Vec::new(),
            guard: Vec::new(),
            seen: Vec::new(),
            keys_used: Vec::new(),
        }];
        let mut fail: Option<Pos> = None;
        let mut matchy = false;
        let mut wins: Vec<Success> = Vec::new();
        let mut seen: Vec<usize> = Vec::new();
        let mut paths = 0;
        let mut steps = 0;
        let v310 = self.code.version == PyVersion::V3_10;
        while let Some(mut st) = work.pop() {
            paths += 1;
            if paths > MAX_PATHS {
                return Err(self.err("a pattern with too many ways through it"));
            }
            loop {
                steps += 1;
                if steps > MAX_STEPS {
                    return Err(self.err("a pattern too long to decode"));
                }
                if st.stack.len() <= body_depth {
                    if st.stack.len() < body_depth {
                        return Err(self.err("a pattern pops below its subject"));
                    }
                    let body = self
                        .norm(st.pos)
                        .ok_or_else(|| self.err("a case without a body"))?;
                    let (body, more) = if copying {
                        (body, Vec::new())
                    } else {
                        self.trailing_guard(&st, body, fail_depth, &mut fail)?
                    };
                    let mut guard = st.guard.clone();
                    guard.extend(more);
                    seen.extend(st.seen.iter().copied());
                    wins.push(Success {
                        body,
                        conds: st.conds,
                        binds: st.binds,
                        guard,
                    });
                    break;
                }
                let pos = self
                    .norm(st.pos)
                    .ok_or_else(|| self.err("a pattern runs off its code"))?;
                st.pos = pos;
                if !st.seen.contains(&pos.0) {
                    st.seen.push(pos.0);
                }
                let ins = self
                    .instr_at(pos)
                    .ok_or_else(|| self.err("a pattern runs off its code"))?;
                let raw = match ins.arg {
                    Arg::Raw(a) => a as usize,
                    Arg::Jump(_) => 0,
                };
                let name = ins.op.name;
                let next = (pos.0, pos.1 + 1);
                let floor = body_depth;
                match name {
                    "NOP" | "NOT_TAKEN" | "CACHE" | "EXTENDED_ARG" => {}
                    "POP_TOP" => {
                        let v = self.pop_val(&mut st, floor.saturating_sub(1))?;
                        if let Val::Expr(e) = &v {
                            if ph_index(&v).is_none() && has_ph(e) {
                                return Err(self.err("a pattern drops a value it computed"));
                            }
                            if ph_index(&v).is_none() && !st.keys_used.contains(e) {
                                return Err(self.err("an expression statement inside a pattern"));
                            }
                        }
                    }
                    "COPY" | "DUP_TOP" => {
                        let n = if name == "DUP_TOP" { 1 } else { raw };
                        let l = st.stack.len();
                        if n == 0 || n > l || l - n < floor {
                            return Err(self.err("a pattern copies below its subject").op(name));
                        }
                        let v = st.stack[l - n].clone();
                        // a pattern copies parts of the subject (and constant keys); a copied
                        // expression (a chained comparison's middle operand) would be evaluated
                        // twice in any source this could print
                        if let Val::Expr(e) = &v {
                            if ph_index(&v).is_none() && !matches!(e, Expr::Constant { .. }) {
                                return Err(self.err("a pattern copies an expression").op(name));
                            }
                        }
                        st.stack.push(v);
                    }
                    "SWAP" | "ROT_TWO" | "ROT_THREE" | "ROT_FOUR" | "ROT_N" => {
                        let l = st.stack.len();
                        let n = match name {
                            "ROT_TWO" => 2,
                            "ROT_THREE" => 3,
                            "ROT_FOUR" => 4,
                            _ => raw,
                        };
                        if n < 2 || n > l || l - n < floor.saturating_sub(1) {
                            return Err(self
                                .err("a pattern moves values below its subject")
                                .op(name));
                        }
                        if name == "SWAP" {
                            st.stack.swap(l - 1, l - n);
                        } else {
                            let top = st.stack.pop().ok_or_else(|| self.err("empty stack"))?;
                            st.stack.insert(l - n, top);
                        }
                    }
                    "MATCH_SEQUENCE" | "MATCH_MAPPING" | "GET_LEN" => {
                        matchy = true;
                        let top = st.stack.last().cloned().unwrap_or(Val::Null);
                        let p = match self.abs(&st, &top) {
                            Some(Abs::Subj(p)) => p.clone(),
                            _ => {
                                return Err(self
                                    .err("a pattern test of something other than the subject")
                                    .op(name))
                            }
                        };
                        let a = match name {
                            "MATCH_SEQUENCE" => Abs::Test(Pred::IsSeq(p)),
                            "MATCH_MAPPING" => Abs::Test(Pred::IsMap(p)),
                            _ => Abs::Len(p),
                        };
                        let v = self.mk(&mut st, a);
                        st.stack.push(v);
                    }
                    "MATCH_KEYS" => {
                        matchy = true;
                        let l = st.stack.len();
                        if l < 2 + floor {
                            return Err(self.err("MATCH_KEYS without its operands"));
                        }
                        let keys = match &st.stack[l - 1] {
                            Val::Expr(e) if !has_ph(e) => {
                                st.keys_used.push(e.clone());
                                tuple_items(e)
                            }
                            _ => None,
                        }
                        .ok_or_else(|| self.err("MATCH_KEYS without a tuple of keys"))?;
                        let p = match self.abs(&st, &st.stack[l - 2]) {
                            Some(Abs::Subj(p)) => p.clone(),
                            _ => {
                                return Err(
                                    self.err("MATCH_KEYS of something other than the subject")
                                )
                            }
                        };
                        let v = self.mk(
                            &mut st,
                            Abs::KeysRes {
                                path: p.clone(),
                                keys: keys.clone(),
                            },
                        );
                        st.stack.push(v);
                        if v310 {
                            let t = self.mk(&mut st, Abs::Test(Pred::Keys { path: p, keys }));
                            st.stack.push(t);
                        }
                    }
                    "MATCH_CLASS" => {
                        matchy = true;
                        let names = self.pop_val(&mut st, floor)?;
                        let cls = self.pop_val(&mut st, floor)?;
                        let subj = self.pop_val(&mut st, floor.saturating_sub(1))?;
                        let kw = match &names {
                            Val::Expr(e) if !has_ph(e) => tuple_items(e),
                            _ => None,
                        }
                        .and_then(|items| {
                            items
                                .iter()
                                .map(|k| match k {
                                    Expr::Constant {
                                        value: Constant::Str(s),
                                        ..
                                    } => s.to_string_lossless(),
                                    _ => None,
                                })
                                .collect::<Option<Vec<String>>>()
                        })
                        .ok_or_else(|| self.err("MATCH_CLASS without its attribute names"))?;
                        let cls = match cls {
                            Val::Expr(e) if !has_ph(&e) => e,
                            _ => return Err(self.err("MATCH_CLASS without a class")),
                        };
                        let p = match self.abs(&st, &subj) {
                            Some(Abs::Subj(p)) => p.clone(),
                            _ => {
                                return Err(
                                    self.err("MATCH_CLASS of something other than the subject")
                                )
                            }
                        };
                        let res = Abs::ClassRes {
                            path: p.clone(),
                            cls: cls.clone(),
                            npos: raw,
                            kw: kw.clone(),
                        };
                        let v = self.mk(&mut st, res);
                        st.stack.push(v);
                        if v310 {
                            let t = self.mk(
                                &mut st,
                                Abs::Test(Pred::Class {
                                    path: p,
                                    cls,
                                    npos: raw,
                                    kw,
                                }),
                            );
                            st.stack.push(t);
                        }
                    }
                    "COPY_DICT_WITHOUT_KEYS" => {
                        let keys = self.pop_val(&mut st, floor)?;
                        let keys = match &keys {
                            Val::Expr(e) if !has_ph(e) => tuple_items(e),
                            _ => None,
                        }
                        .ok_or_else(|| self.err("COPY_DICT_WITHOUT_KEYS without keys"))?;
                        let top = st.stack.last().cloned().unwrap_or(Val::Null);
                        let p = match self.abs(&st, &top) {
                            Some(Abs::Subj(p)) => p.clone(),
                            _ => return Err(self.err("COPY_DICT_WITHOUT_KEYS of something else")),
                        };
                        let v = self.mk(
                            &mut st,
                            Abs::Rest {
                                path: p,
                                removed: keys,
                            },
                        );
                        st.stack.push(v);
                    }
                    "UNPACK_SEQUENCE" | "UNPACK_EX" => {
                        let v = self.pop_val(&mut st, floor.saturating_sub(1))?;
                        let items: Vec<Val> = match (self.abs(&st, &v).cloned(), &v) {
                            (Some(Abs::Subj(p)), _) => {
                                if name == "UNPACK_EX" {
                                    let (before, after) = (raw & 0xff, raw >> 8);
                                    st.conds.push(Pred::Unpack(p.clone(), before, Some(after)));
                                    let mut parts: Vec<Abs> = (0..before)
                                        .map(|i| Abs::Subj(p.sub(|b| Path::Item(b, i as i64))))
                                        .collect();
                                    parts.push(Abs::Subj(p.sub(Path::Star)));
                                    parts.extend((0..after).map(|j| {
                                        Abs::Subj(p.sub(|b| Path::Item(b, j as i64 - after as i64)))
                                    }));
                                    parts.into_iter().map(|a| self.mk(&mut st, a)).collect()
                                } else {
                                    st.conds.push(Pred::Unpack(p.clone(), raw, None));
                                    (0..raw)
                                        .map(|i| {
                                            self.mk(
                                                &mut st,
                                                Abs::Subj(p.sub(|b| Path::Item(b, i as i64))),
                                            )
                                        })
                                        .collect()
                                }
                            }
                            (Some(Abs::KeysRes { path, keys }), _)
                                if name == "UNPACK_SEQUENCE" && raw == keys.len() =>
                            {
                                (0..raw)
                                    .map(|i| {
                                        self.mk(&mut st, Abs::Subj(path.sub(|b| Path::Key(b, i))))
                                    })
                                    .collect()
                            }
                            (Some(Abs::ClassRes { path, npos, kw, .. }), _)
                                if name == "UNPACK_SEQUENCE" && raw == npos + kw.len() =>
                            {
                                (0..raw)
                                    .map(|i| {
                                        self.mk(&mut st, Abs::Subj(path.sub(|b| Path::Attr(b, i))))
                                    })
                                    .collect()
                            }
                            (None, Val::Expr(e)) if name == "UNPACK_SEQUENCE" && !has_ph(e) => {
                                match tuple_items(e) {
                                    Some(items) if items.len() == raw => {
                                        items.into_iter().map(Val::Expr).collect()
                                    }
                                    _ => {
                                        return Err(self
                                            .err("an unpacking in a pattern of something unknown"))
                                    }
                                }
                            }
                            _ => {
                                return Err(self
                                    .err("an unpacking in a pattern of something unknown")
                                    .op(name))
                            }
                        };
                        st.stack.extend(items.into_iter().rev());
                    }
                    "BUILD_MAP" if raw == 0 => {
                        let v = self.mk(&mut st, Abs::EmptyDict);
                        st.stack.push(v);
                    }
                    "DICT_UPDATE" => {
                        let src = self.pop_val(&mut st, floor.saturating_sub(1))?;
                        let p = match self.abs(&st, &src) {
                            Some(Abs::Subj(p)) => p.clone(),
                            _ => return Err(self.err("DICT_UPDATE in a pattern of something else")),
                        };
                        let l = st.stack.len();
                        if raw == 0 || raw > l || l - raw < floor {
                            return Err(self.err("DICT_UPDATE below the pattern"));
                        }
                        let target = st.stack[l - raw].clone();
                        if self.abs(&st, &target) != Some(&Abs::EmptyDict) {
                            return Err(self.err("DICT_UPDATE of something other than a new dict"));
                        }
                        let v = self.mk(
                            &mut st,
                            Abs::Rest {
                                path: p,
                                removed: Vec::new(),
                            },
                        );
                        st.stack[l - raw] = v;
                    }
                    "DELETE_SUBSCR" => {
                        let key = self.pop_val(&mut st, floor)?;
                        let d = self.pop_val(&mut st, floor)?;
                        let key = match key {
                            Val::Expr(e) if !has_ph(&e) => e,
                            _ => return Err(self.err("a deletion in a pattern of an unknown key")),
                        };
                        match ph_index(&d).and_then(|i| st.table.get_mut(i)) {
                            Some(Abs::Rest { removed, .. }) => removed.push(key),
                            _ => {
                                return Err(self.err("a deletion in a pattern from something else"))
                            }
                        }
                    }
                    _ if ins.op.flow == Flow::Jump => {
                        let t = self
                            .succ(pos.0, EdgeKind::Jump)
                            .ok_or_else(|| self.err("a jump without target"))?;
                        st.pos = (t, 0);
                        continue;
                    }
                    _ if ins.op.flow == Flow::Branch && name.starts_with("POP_JUMP") => {
                        let v = self.pop_val(&mut st, floor.saturating_sub(1))?;
                        let none_test = name.contains("NONE");
                        let (test, holds_when_jump) = if none_test {
                            let jump_if_none = !name.contains("NOT_NONE");
                            match (self.abs(&st, &v).cloned(), &v) {
                                (Some(Abs::Subj(p)), _) => {
                                    (Ok(Pred::Is(p, Constant::None)), jump_if_none)
                                }
                                (
                                    Some(Abs::ClassRes {
                                        path,
                                        cls,
                                        npos,
                                        kw,
                                    }),
                                    _,
                                ) => (
                                    Ok(Pred::Class {
                                        path,
                                        cls,
                                        npos,
                                        kw,
                                    }),
                                    !jump_if_none,
                                ),
                                (Some(Abs::KeysRes { path, keys }), _) => {
                                    (Ok(Pred::Keys { path, keys }), !jump_if_none)
                                }
                                (None, Val::Expr(e)) if !has_ph(e) => (
                                    Err(Expr::Compare {
                                        left: Box::new(e.clone()),
                                        ops: vec![CmpOp::Is],
                                        comparators: vec![Expr::Constant {
                                            value: Constant::None,
                                            kind: None,
                                        }],
                                    }),
                                    jump_if_none,
                                ),
                                _ => {
                                    return Err(
                                        self.err("a None test in a pattern of something unknown")
                                    )
                                }
                            }
                        } else {
                            let e = match &v {
                                Val::Expr(e) => e.clone(),
                                _ => return Err(self.err("a branch on something unknown")),
                            };
                            let (t, holds) = self.test_of(&st, &e)?;
                            let jump_if = name.contains("IF_TRUE");
                            (t, holds == jump_if)
                        };
                        let jump = (
                            self.succ(pos.0, EdgeKind::Jump)
                                .ok_or_else(|| self.err("a branch without target"))?,
                            0,
                        );
                        let fall = next;
                        let depth = st.stack.len();
                        // a failing test goes on where the test is false
                        let (jf, ff) = if holds_when_jump {
                            (None, self.fail_side(fall, depth, fail_depth, fail))
                        } else {
                            (self.fail_side(jump, depth, fail_depth, fail), None)
                        };
                        let (go_on, holds) = match (jf, ff) {
                            (Some(q), _) => {
                                fail = Some(q);
                                (fall, !holds_when_jump)
                            }
                            (None, Some(q)) => {
                                fail = Some(q);
                                (jump, holds_when_jump)
                            }
                            (None, None) => {
                                // alternatives of an or-pattern: both ways go on
                                let pred = match test {
                                    Ok(p) => p,
                                    Err(_) => return Err(self.err(
                                        "a guard with branches this decompiler does not structure",
                                    )),
                                };
                                let (yes, no) = if holds_when_jump {
                                    (jump, fall)
                                } else {
                                    (fall, jump)
                                };
                                let mut other = st.clone();
                                other.pos = no;
                                // the failed alternative's tests say nothing of the next one's
                                if let Some(q) = self.next_alternative(&other) {
                                    other.conds.retain(|c| !c.path().is_within(&q));
                                }
                                work.push(other);
                                if !st.conds.contains(&pred) {
                                    st.conds.push(pred);
                                }
                                st.pos = yes;
                                continue;
                            }
                        };
                        if test.is_ok() && !st.guard.is_empty() {
                            return Err(self.err("a pattern test after a guard's test"));
                        }
                        // a pattern stores its captures once all its tests passed (a store
                        // before a test is an assignment expression, not a capture)
                        if test.is_ok() && !st.binds.is_empty() {
                            return Err(self.err("a pattern test after a capture"));
                        }
                        match test {
                            Ok(p) if holds => {
                                if !st.conds.contains(&p) {
                                    st.conds.push(p)
                                }
                            }
                            Ok(_) => {
                                return Err(self.err("a pattern test that matches when it fails"))
                            }
                            Err(e) => {
                                if !st.conds.is_empty() || !st.binds.is_empty() || copying {
                                    st.guard.push(if holds {
                                        crate::exprs::truth(e)
                                    } else {
                                        super::negate(crate::exprs::truth(e))
                                    });
                                } else {
                                    return Err(self.err("a guard before its pattern"));
                                }
                            }
                        }
                        st.pos = go_on;
                        continue;
                    }
                    _ if ins.op.flow != Flow::Next => {
                        return Err(self
                            .err("control flow inside a pattern this decompiler does not know")
                            .op(name));
                    }
                    _ => {
                        // loads, comparisons, subscripts and stores: the expression simulator,
                        // with symbolic values as placeholder names
                        self.delegate(&mut st, ins)?;
                    }
                }
                st.pos = next;
            }
        }
        let mut out = self.finish_case(start, wins, fail, seen)?;
        out.matchy = matchy;
        Ok(out)
    }

    /// One instruction run by the expression simulator over the path's stack; stores of symbolic
    /// values become bindings.
    fn delegate(&self, st: &mut PathState, ins: &Instr) -> Result<(), DecompileError> {
        // 3.14 spells a subscript BINARY_OP []
        let subscript = ins.op.name == "BINARY_OP"
            && match (ins.op.arg, ins.arg) {
                (framejit_bytecode::opcode::ArgKind::Named { names, shift }, Arg::Raw(raw)) => {
                    names.get((raw >> shift) as usize) == Some(&"[]")
                }
                _ => false,
            };
        let l = st.stack.len();
        if subscript && l >= 2 {
            if let (Val::Expr(obj), Val::Expr(key)) = (&st.stack[l - 2], &st.stack[l - 1]) {
                let e = Expr::Subscript {
                    value: Box::new(obj.clone()),
                    slice: Box::new(key.clone()),
                    ctx: crate::ast::ExprContext::Load,
                };
                st.stack.truncate(l - 2);
                st.stack.push(Val::Expr(e));
                return self.resolve_subscript(st);
            }
        }
        let mut sim = Sim::new(self.code, std::mem::take(&mut st.stack));
        if sim.step(ins)?.is_some() {
            return Err(self.err("a pattern leaves its code").op(ins.op.name));
        }
        for s in std::mem::take(&mut sim.out) {
            match s {
                Stmt::Assign { targets, value } => {
                    let name = match targets.as_slice() {
                        [Expr::Name { id, .. }] => id.clone(),
                        _ => {
                            return Err(
                                self.err("a pattern stores into something other than a name")
                            )
                        }
                    };
                    let bound = match expr_index(&value).and_then(|i| st.table.get(i)) {
                        Some(Abs::Subj(p)) => Bound::Path(p.clone()),
                        Some(Abs::Rest { path, removed }) => {
                            Bound::Rest(path.clone(), removed.clone())
                        }
                        _ => {
                            return Err(
                                self.err("a store inside a pattern of something it did not match")
                            )
                        }
                    };
                    if !st.guard.is_empty() {
                        return Err(self.err("a capture after a guard's test"));
                    }
                    st.binds.push((name, bound));
                }
                _ => return Err(self.err("a statement inside a pattern").op(ins.op.name)),
            }
        }
        st.stack = sim.stack;
        self.resolve_subscript(st)
    }

    /// An item of the subject (or of what MATCH_CLASS / MATCH_KEYS gave, 3.10) by a constant index
    /// on top of the stack becomes that part of the subject.
    fn resolve_subscript(&self, st: &mut PathState) -> Result<(), DecompileError> {
        // an item of the subject or of what MATCH_CLASS / MATCH_KEYS (3.10) gave, by a constant index
        if let Some(Val::Expr(Expr::Subscript { value, slice, .. })) = st.stack.last() {
            let index = int_of(slice).or_else(|| match slice.as_ref() {
                // an item counted from the end: `seq[len(seq) - n]`
                Expr::BinOp {
                    left,
                    op: crate::ast::Operator::Sub,
                    right,
                } => match (
                    expr_index(left).and_then(|l| st.table.get(l)),
                    expr_index(value).and_then(|v| st.table.get(v)),
                    int_of(right),
                ) {
                    (Some(Abs::Len(lp)), Some(Abs::Subj(vp)), Some(n)) if lp == vp && n > 0 => {
                        Some(-n)
                    }
                    _ => None,
                },
                _ => None,
            });
            if let (Some(i), Some(n)) = (expr_index(value), index) {
                let a = match st.table.get(i) {
                    Some(Abs::Subj(p)) => Abs::Subj(p.sub(|b| Path::Item(b, n))),
                    Some(Abs::ClassRes { path, npos, kw, .. })
                        if n >= 0 && (n as usize) < npos + kw.len() =>
                    {
                        Abs::Subj(path.sub(|b| Path::Attr(b, n as usize)))
                    }
                    Some(Abs::KeysRes { path, keys }) if n >= 0 && (n as usize) < keys.len() => {
                        Abs::Subj(path.sub(|b| Path::Key(b, n as usize)))
                    }
                    _ => return Err(self.err("a subscript in a pattern of something unknown")),
                };
                st.stack.pop();
                let v = self.mk(st, a);
                st.stack.push(v);
            }
        }
        Ok(())
    }

    /// A guard after the stores of the last case (whose subject is gone): tests that fail to the
    /// case's failure point. Returns where the body starts and the guard's conditions.
    fn trailing_guard(
        &self,
        st: &PathState,
        body: Pos,
        fail_depth: usize,
        fail: &mut Option<Pos>,
    ) -> Result<(Pos, Vec<Expr>), DecompileError> {
        let mut known = *fail;
        let mut guard = Vec::new();
        let mut start = body;
        let mut p = body;
        let mut sim = Sim::new(self.code, st.stack.clone());
        for _ in 0..10_000 {
            let Some(ins) = self.instr_at(p) else { break };
            if ins.op.flow == Flow::Branch
                && ins.op.name.starts_with("POP_JUMP")
                && !ins.op.name.contains("NONE")
            {
                let Some(Val::Expr(test)) = sim.stack.pop() else {
                    break;
                };
                if !sim.out.is_empty() || sim.stack.len() != fail_depth || has_ph(&test) {
                    break;
                }
                let Some(t) = self.succ(p.0, EdgeKind::Jump) else {
                    break;
                };
                let Some(q) = self.fail_side((t, 0), fail_depth, fail_depth, known) else {
                    break;
                };
                // with no failing test before it, only a guard failing to `case _:` (its NOP)
                // tells a guard from an `if` that starts the body
                if known.is_none() {
                    let after_nop = q.1 > 0
                        && self
                            .instrs(q.0)
                            .get(q.1 - 1)
                            .is_some_and(|i| i.op.name == "NOP");
                    if !after_nop {
                        break;
                    }
                    known = Some(q);
                    *fail = Some(q);
                }
                let jump_if = ins.op.name.contains("IF_TRUE");
                guard.push(if jump_if {
                    super::negate(crate::exprs::truth(test))
                } else {
                    crate::exprs::truth(test)
                });
                match self.norm((p.0, p.1 + 1)) {
                    Some(n) => {
                        start = n;
                        p = n;
                    }
                    None => break,
                }
                continue;
            }
            if ins.op.flow != Flow::Next {
                break;
            }
            match sim.step(ins) {
                Ok(None) if sim.out.is_empty() => {}
                _ => break,
            }
            match self.norm((p.0, p.1 + 1)) {
                Some(n) => p = n,
                None => break,
            }
        }
        Ok((start, guard))
    }

    /// The pattern of a case from the ways through it that reach the body.
    fn finish_case(
        &self,
        start: Pos,
        wins: Vec<Success>,
        fail: Option<Pos>,
        seen: Vec<usize>,
    ) -> Result<CaseOut, DecompileError> {
        let first = wins
            .first()
            .ok_or_else(|| self.err("a case that never matches"))?;
        let body = first.body;
        let guard = first.guard.clone();
        let mut names: Vec<&String> = first.binds.iter().map(|b| &b.0).collect();
        names.sort();
        let mut dups = Vec::new();
        let mut alts = Vec::new();
        for w in &wins {
            if w.guard != guard {
                return Err(self.err("or-pattern alternatives with different guards"));
            }
            let mut n: Vec<&String> = w.binds.iter().map(|b| &b.0).collect();
            n.sort();
            if n != names {
                return Err(self.err("or-pattern alternatives that bind different names"));
            }
            if w.body != body {
                if !self.same_case_exit(body, w.body) {
                    return Err(self.err("a case whose alternatives go on to different code"));
                }
                if !dups.contains(&w.body) {
                    dups.push(w.body);
                }
            }
            alts.push(self.build_pattern(&w.conds, &w.binds)?);
        }
        let pattern = merge_alts(alts);
        let guard = match guard.len() {
            0 => None,
            1 => guard.into_iter().next(),
            _ => Some(Expr::BoolOp {
                op: crate::ast::BoolOp::And,
                values: guard,
            }),
        };
        Ok(CaseOut {
            start,
            matchy: false,
            pattern,
            guard,
            body,
            dups,
            fail,
            seen,
        })
    }

    /// Two copies of the same exit code (the rest of a block ending in return or raise).
    fn same_case_exit(&self, a: Pos, b: Pos) -> bool {
        let ia = self.instrs(a.0);
        let ib = self.instrs(b.0);
        let (ta, tb) = (&ia[a.1.min(ia.len())..], &ib[b.1.min(ib.len())..]);
        ta.len() == tb.len()
            && ta.last().is_some_and(|i| i.op.flow == Flow::Exit)
            && ta
                .iter()
                .zip(tb)
                .all(|(x, y)| x.op.name == y.op.name && x.arg == y.arg)
    }

    fn build_pattern(
        &self,
        conds: &[Pred],
        binds: &[(String, Bound)],
    ) -> Result<Pattern, DecompileError> {
        let mut b = Builder {
            conds,
            binds,
            used_c: vec![false; conds.len()],
            used_b: vec![false; binds.len()],
        };
        let p = b.pattern(&Path::Root).map_err(|m| self.err(m))?;
        if b.used_c.iter().any(|u| !u) || b.used_b.iter().any(|u| !u) {
            return Err(self.err("a pattern test or capture this decompiler cannot place"));
        }
        Ok(p)
    }

    /// Try a match statement at block `b`: its subject computed in the block (after any statements
    /// before it), its first case testing it. `Ok(None)`: not a match.
    pub(super) fn try_match(
        &mut self,
        b: usize,
        stack: &[Val],
        base: &[Val],
        lp: Option<&LoopCtx>,
    ) -> Result<Option<MatchOut>, DecompileError> {
        if self.code.version < PyVersion::V3_10 || stack.len() < base.len() {
            return Ok(None);
        }
        let instrs = self.instrs(b);
        let start = self.resume[b];
        let rest = instrs.get(start..).unwrap_or(&[]);
        let has_match_op = rest.iter().any(|i| i.op.name.starts_with("MATCH_"));
        let ends_in_branch = rest.last().is_some_and(|i| i.op.flow == Flow::Branch);
        let has_copy = rest.iter().any(|i| {
            i.op.name == "DUP_TOP" || (i.op.name == "COPY" && matches!(i.arg, Arg::Raw(1)))
        });
        if !(has_match_op || ends_in_branch && has_copy) {
            return Ok(None);
        }
        // where the subject may be complete: one value more than the statement's base
        let mut cands = Vec::new();
        {
            let mut sim = Sim::new(self.code, stack.to_vec());
            for (k, ins) in rest.iter().enumerate() {
                if sim.stack.len() == base.len() + 1
                    && matches!(sim.stack.last(), Some(Val::Expr(_)))
                    && sim.check_copies().is_ok()
                {
                    cands.push(start + k);
                }
                match sim.step(ins) {
                    Ok(None) => {}
                    _ => break,
                }
            }
        }
        let mut last_err = None;
        for &k in cands.iter().rev() {
            let mut sim = Sim::new(self.code, stack.to_vec());
            let mut ok = true;
            for ins in &instrs[start..k] {
                if !matches!(sim.step(ins), Ok(None)) {
                    ok = false;
                    break;
                }
            }
            if !ok || sim.check_copies().is_err() {
                continue;
            }
            let Some(Val::Expr(subject)) = sim.stack.last().cloned() else {
                continue;
            };
            if has_ph(&subject) {
                continue;
            }
            let saved = (
                self.visits.clone(),
                self.emitted.clone(),
                self.resume.clone(),
                self.expect_exit_call,
                self.bottom_test_seen,
            );
            match self.match_from(b, k, subject, base, lp) {
                Ok((stmt, next)) => {
                    let mut out = sim.out;
                    out.push(stmt);
                    return Ok(Some((out, next)));
                }
                Err(e) => {
                    (
                        self.visits,
                        self.emitted,
                        self.resume,
                        self.expect_exit_call,
                        self.bottom_test_seen,
                    ) = saved;
                    last_err.get_or_insert(e);
                }
            }
        }
        match last_err {
            Some(e) if has_match_op => Err(e),
            None if has_match_op => {
                Err(self.err("a match statement whose subject this decompiler does not find"))
            }
            _ => Ok(None),
        }
    }

    fn match_from(
        &mut self,
        b: usize,
        k: usize,
        subject: Expr,
        base: &[Val],
        lp: Option<&LoopCtx>,
    ) -> Result<(Stmt, Option<usize>), DecompileError> {
        let d0 = base.len() + 1;
        let mut pos = (b, k);
        let mut decoded: Vec<CaseOut> = Vec::new();
        let mut end_fail: Option<Pos> = None;
        let fresh = |s: &Self| {
            let mut st = PathState {
                pos: (0, 0),
                stack: base.to_vec(),
                table: Vec::new(),
                conds: Vec::new(),
                binds: Vec::new(),
                guard: Vec::new(),
                seen: Vec::new(),
                keys_used: Vec::new(),
            };
            let v = s.mk(&mut st, Abs::Subj(Path::Root));
            st.stack.push(v);
            (st.stack, st.table)
        };
        for _ in 0..1000 {
            let first = self
                .instr_at(pos)
                .ok_or_else(|| self.err("a match case without code"))?;
            let copies = first.op.name == "DUP_TOP"
                || (first.op.name == "COPY" && matches!(first.arg, Arg::Raw(1)));
            if copies {
                let (stack, table) = fresh(self);
                let r = self.decode_case(pos, stack, table, d0);
                if let Ok(c) = r {
                    if let Some(q) = c.fail.filter(|&q| q != pos) {
                        pos = q;
                        decoded.push(c);
                        continue;
                    }
                }
            }
            let (stack, table) = fresh(self);
            let c = self.decode_case(pos, stack, table, d0 - 1)?;
            end_fail = c.fail;
            decoded.push(c);
            break;
        }
        // The alternatives of an or-pattern in the last case copy its subject as cases do: read
        // as cases, they end in a bare `_` (the or-pattern's cleanup: no compiler writes such a
        // case) or reach the same body. Then read them again as one case.
        for _ in 0..decoded.len() {
            let n = decoded.len();
            let bare = |c: &CaseOut| {
                c.guard.is_none()
                    && c.pattern
                        == Pattern::MatchAs {
                            pattern: None,
                            name: None,
                        }
            };
            let shared = (1..n).find(|&i| {
                decoded[i].body == decoded[i - 1].body
                    || (decoded[i].guard == decoded[i - 1].guard
                        && self.same_case_exit(decoded[i].body, decoded[i - 1].body))
            });
            let redo = if n > 1 && bare(&decoded[n - 1]) {
                n - 2
            } else if let Some(i) = shared {
                i - 1
            } else {
                break;
            };
            let must = decoded[redo + 1].body == decoded[redo].body || bare(&decoded[n - 1]);
            let (stack, table) = fresh(self);
            match self.decode_case(decoded[redo].start, stack, table, d0 - 1) {
                Ok(c) => {
                    decoded.truncate(redo);
                    end_fail = c.fail;
                    decoded.push(c);
                }
                Err(e) if must => return Err(e),
                Err(_) => break,
            }
        }
        if decoded.len() < 2 && end_fail.is_none() {
            return Err(self.err("a single irrefutable case (an assignment)"));
        }
        // one case that leaves its subject alone and tests it as `==`/`is` would: an `if`
        let plain_test = |c: &CaseOut| {
            !c.matchy
                && matches!(
                    c.pattern,
                    Pattern::MatchValue { .. } | Pattern::MatchSingleton { .. }
                )
        };
        if decoded.len() < 2 && decoded.iter().all(plain_test) {
            return Err(self.err("a single value test (an if statement)"));
        }
        // the bodies must start apart
        for (i, c) in decoded.iter().enumerate() {
            if decoded[..i].iter().any(|d| d.body == c.body) {
                return Err(self.err("match cases that share a body"));
            }
        }
        let merge = self.ipdom[b];
        for c in &decoded {
            for &x in &c.seen {
                let partial = decoded
                    .iter()
                    .any(|d| d.body.0 == x || d.fail.is_some_and(|f| f.0 == x));
                if !partial {
                    self.emitted[x] = true;
                }
            }
            for d in &c.dups {
                self.emitted[d.0] = true;
            }
        }
        self.emitted[b] = true;
        let mut cases = Vec::new();
        for c in decoded {
            let body = self.body_at(c.body, merge, base, lp)?;
            cases.push(MatchCase {
                pattern: c.pattern,
                guard: c.guard,
                body: or_pass(body),
            });
        }
        let mut next = merge;
        if let Some(q) = end_fail {
            // `case _:` leaves a NOP for its line; without it the failure goes on after the match
            let default = q.1 > 0
                && self
                    .instrs(q.0)
                    .get(q.1 - 1)
                    .is_some_and(|i| i.op.name == "NOP");
            if !default && (Some(q.0) == merge || merge.is_none()) {
                self.resume[q.0] = q.1;
                self.emitted[q.0] = false;
                next = Some(q.0);
            } else {
                let body = self.body_at(q, merge, base, lp)?;
                cases.push(MatchCase {
                    pattern: Pattern::MatchAs {
                        pattern: None,
                        name: None,
                    },
                    guard: None,
                    body: or_pass(body),
                });
            }
        }
        if next.is_some_and(|m| m == b) {
            return Err(self.err("a match statement that loops to itself"));
        }
        Ok((Stmt::Match { subject, cases }, next))
    }

    /// The statements of a case body starting at `p` (possibly inside a block) up to `merge`.
    fn body_at(
        &mut self,
        p: Pos,
        merge: Option<usize>,
        base: &[Val],
        lp: Option<&LoopCtx>,
    ) -> Result<Vec<Stmt>, DecompileError> {
        if Some(p.0) == merge && p.1 == 0 {
            return Ok(Vec::new());
        }
        self.resume[p.0] = p.1;
        self.emitted[p.0] = false;
        self.region(p.0, merge, base, lp)
    }
}

struct Builder<'c> {
    conds: &'c [Pred],
    binds: &'c [(String, Bound)],
    used_c: Vec<bool>,
    used_b: Vec<bool>,
}

impl Builder<'_> {
    fn take(&mut self, f: impl Fn(&Pred) -> bool) -> Option<Pred> {
        let i = (0..self.conds.len()).find(|&i| !self.used_c[i] && f(&self.conds[i]))?;
        self.used_c[i] = true;
        Some(self.conds[i].clone())
    }

    fn bound(&mut self, f: impl Fn(&Bound) -> bool) -> Vec<String> {
        let mut out = Vec::new();
        for i in 0..self.binds.len() {
            if !self.used_b[i] && f(&self.binds[i].1) {
                self.used_b[i] = true;
                out.push(self.binds[i].0.clone());
            }
        }
        out
    }

    /// Every path a test or a capture mentions (and the paths it lies under).
    fn mentioned(&self) -> Vec<Path> {
        let mut out = Vec::new();
        let mut add = |p: &Path| {
            let mut q = p.clone();
            loop {
                if !out.contains(&q) {
                    out.push(q.clone());
                }
                q = match q {
                    Path::Root => break,
                    Path::Item(b, _) | Path::Star(b) | Path::Key(b, _) | Path::Attr(b, _) => *b,
                };
            }
        };
        for c in self.conds {
            match c {
                Pred::IsSeq(p)
                | Pred::IsMap(p)
                | Pred::LenEq(p, _)
                | Pred::LenGe(p, _)
                | Pred::Eq(p, _)
                | Pred::Is(p, _)
                | Pred::Unpack(p, _, _)
                | Pred::Class { path: p, .. }
                | Pred::Keys { path: p, .. } => add(p),
            }
        }
        for (_, b) in self.binds {
            match b {
                Bound::Path(p) | Bound::Rest(p, _) => add(p),
            }
        }
        out
    }

    fn pattern(&mut self, p: &Path) -> Result<Pattern, String> {
        let base = if let Some(Pred::Class { cls, npos, kw, .. }) =
            self.take(|c| matches!(c, Pred::Class { path, .. } if path == p))
        {
            let patterns = (0..npos)
                .map(|i| self.pattern(&p.sub(|b| Path::Attr(b, i))))
                .collect::<Result<Vec<_>, _>>()?;
            let kwd_patterns = (0..kw.len())
                .map(|j| self.pattern(&p.sub(|b| Path::Attr(b, npos + j))))
                .collect::<Result<Vec<_>, _>>()?;
            Some(Pattern::MatchClass {
                cls,
                patterns,
                kwd_attrs: kw,
                kwd_patterns,
            })
        } else if self
            .take(|c| matches!(c, Pred::IsSeq(q) if q == p))
            .is_some()
        {
            Some(self.sequence(p)?)
        } else if self
            .take(|c| matches!(c, Pred::IsMap(q) if q == p))
            .is_some()
        {
            let keys = match self.take(|c| matches!(c, Pred::Keys { path, .. } if path == p)) {
                Some(Pred::Keys { keys, .. }) => keys,
                _ => Vec::new(),
            };
            if let Some(Pred::LenGe(_, n)) = self.take(|c| matches!(c, Pred::LenGe(q, _) if q == p))
            {
                if n != keys.len() as i64 {
                    return Err("a mapping pattern whose length test does not fit its keys".into());
                }
            }
            let patterns = (0..keys.len())
                .map(|i| self.pattern(&p.sub(|b| Path::Key(b, i))))
                .collect::<Result<Vec<_>, _>>()?;
            let rest =
                self.bound(|b| matches!(b, Bound::Rest(q, removed) if q == p && *removed == keys));
            if rest.len() > 1 {
                return Err("a mapping pattern with two rests".into());
            }
            Some(Pattern::MatchMapping {
                keys,
                patterns,
                rest: rest.into_iter().next(),
            })
        } else if let Some(Pred::Eq(_, value)) =
            self.take(|c| matches!(c, Pred::Eq(q, _) if q == p))
        {
            Some(Pattern::MatchValue { value })
        } else if let Some(Pred::Is(_, value)) =
            self.take(|c| matches!(c, Pred::Is(q, _) if q == p))
        {
            Some(Pattern::MatchSingleton { value })
        } else {
            None
        };
        let names = self.bound(|b| matches!(b, Bound::Path(q) if q == p));
        let mut pat = match base {
            Some(b) => b,
            None if names.is_empty() => {
                return Ok(Pattern::MatchAs {
                    pattern: None,
                    name: None,
                })
            }
            None => Pattern::MatchAs {
                pattern: None,
                name: Some(names[0].clone()),
            },
        };
        let skip = usize::from(matches!(pat, Pattern::MatchAs { pattern: None, .. }));
        for n in names.into_iter().skip(skip) {
            pat = Pattern::MatchAs {
                pattern: Some(Box::new(pat)),
                name: Some(n),
            };
        }
        Ok(pat)
    }

    fn sequence(&mut self, p: &Path) -> Result<Pattern, String> {
        let len_eq = self.take(|c| matches!(c, Pred::LenEq(q, _) if q == p));
        let len_ge = self.take(|c| matches!(c, Pred::LenGe(q, _) if q == p));
        let unpack = self.take(|c| matches!(c, Pred::Unpack(q, _, _) if q == p));
        let (size, star) = match (len_eq, len_ge) {
            (Some(Pred::LenEq(_, n)), None) => {
                if matches!(unpack, Some(Pred::Unpack(_, _, Some(_)))) {
                    return Err("a fixed-length sequence pattern unpacked with a star".into());
                }
                (n, None)
            }
            (None, ge) => {
                let n = match ge {
                    Some(Pred::LenGe(_, n)) => n,
                    _ => 0,
                };
                if matches!(unpack, Some(Pred::Unpack(_, _, None))) {
                    // UNPACK_SEQUENCE raises on a longer sequence where the pattern would not match
                    return Err("a starred sequence pattern unpacked to a fixed length".into());
                }
                let after = match &unpack {
                    Some(Pred::Unpack(_, b, Some(a))) => {
                        if (b + a) as i64 != n {
                            return Err(
                                "a sequence pattern whose unpacking does not fit its length".into(),
                            );
                        }
                        *a as i64
                    }
                    _ => self
                        .mentioned()
                        .iter()
                        .filter_map(|q| match q {
                            Path::Item(b, i) if b.as_ref() == p && *i < 0 => Some(-i),
                            _ => None,
                        })
                        .max()
                        .unwrap_or(0),
                };
                (n + 1, Some(n - after))
            }
            _ => return Err("a sequence pattern with two length tests".into()),
        };
        if !(0..=10_000).contains(&size) {
            return Err("a sequence pattern of a length this decompiler does not know".into());
        }
        if let (Some(Pred::Unpack(_, n, None)), None) = (&unpack, star) {
            if *n as i64 != size {
                return Err("a sequence pattern whose unpacking does not fit its length".into());
            }
        }
        let mut patterns = Vec::new();
        for i in 0..size {
            if Some(i) == star {
                let names =
                    self.bound(|b| matches!(b, Bound::Path(Path::Star(q)) if q.as_ref() == p));
                if names.len() > 1 {
                    return Err("a starred pattern with two names".into());
                }
                patterns.push(Pattern::MatchStar {
                    name: names.into_iter().next(),
                });
                continue;
            }
            let idx = match star {
                Some(s) if i > s => i - size,
                Some(s) if s < 0 => {
                    return Err("a sequence pattern with items before its start".into())
                }
                _ => i,
            };
            patterns.push(self.pattern(&p.sub(|b| Path::Item(b, idx)))?);
        }
        // an item the pattern mentions that its length leaves out
        let stray = self.mentioned().iter().any(|q| match q {
            Path::Item(b, i) if b.as_ref() == p => *i >= size || *i < -size,
            _ => false,
        });
        if stray {
            return Err("a sequence pattern mentions an item outside its length".into());
        }
        Ok(Pattern::MatchSequence { patterns })
    }
}

/// One pattern from the alternatives that reach a body: equal ones are one, alternatives that
/// differ in one part only are an or-pattern there, others an or-pattern of the whole.
fn merge_alts(alts: Vec<Pattern>) -> Pattern {
    let mut uniq: Vec<Pattern> = Vec::new();
    for a in alts {
        if !uniq.contains(&a) {
            uniq.push(a);
        }
    }
    if uniq.len() == 1 {
        return uniq.pop().unwrap_or(Pattern::MatchAs {
            pattern: None,
            name: None,
        });
    }
    if let Some(p) = merge_inner(&uniq) {
        return p;
    }
    let mut flat = Vec::new();
    for a in uniq {
        match a {
            Pattern::MatchOr { patterns } => flat.extend(patterns),
            other => flat.push(other),
        }
    }
    Pattern::MatchOr { patterns: flat }
}

/// Alternatives of one shape that differ in exactly one sub-pattern.
fn merge_inner(alts: &[Pattern]) -> Option<Pattern> {
    let subs = |p: &Pattern| -> Option<(Pattern, Vec<Pattern>)> {
        // the pattern with its sub-patterns taken out, and the sub-patterns
        let blank = Pattern::MatchAs {
            pattern: None,
            name: None,
        };
        Some(match p {
            Pattern::MatchSequence { patterns } => (
                Pattern::MatchSequence {
                    patterns: patterns
                        .iter()
                        .map(|x| {
                            if matches!(x, Pattern::MatchStar { .. }) {
                                x.clone()
                            } else {
                                blank.clone()
                            }
                        })
                        .collect(),
                },
                patterns.clone(),
            ),
            Pattern::MatchClass {
                cls,
                patterns,
                kwd_attrs,
                kwd_patterns,
            } => (
                Pattern::MatchClass {
                    cls: cls.clone(),
                    patterns: vec![blank.clone(); patterns.len()],
                    kwd_attrs: kwd_attrs.clone(),
                    kwd_patterns: vec![blank.clone(); kwd_patterns.len()],
                },
                patterns.iter().chain(kwd_patterns).cloned().collect(),
            ),
            Pattern::MatchMapping {
                keys,
                patterns,
                rest,
            } => (
                Pattern::MatchMapping {
                    keys: keys.clone(),
                    patterns: vec![blank.clone(); patterns.len()],
                    rest: rest.clone(),
                },
                patterns.clone(),
            ),
            Pattern::MatchAs {
                pattern: Some(inner),
                name,
            } => (
                Pattern::MatchAs {
                    pattern: None,
                    name: name.clone(),
                },
                vec![inner.as_ref().clone()],
            ),
            _ => return None,
        })
    };
    let all: Vec<(Pattern, Vec<Pattern>)> = alts.iter().map(subs).collect::<Option<_>>()?;
    let (shape, first) = &all[0];
    if all
        .iter()
        .any(|(s, v)| s != shape || v.len() != first.len())
    {
        return None;
    }
    let differ: Vec<usize> = (0..first.len())
        .filter(|&i| all.iter().any(|(_, v)| v[i] != first[i]))
        .collect();
    let [i] = differ.as_slice() else { return None };
    let merged = merge_alts(all.iter().map(|(_, v)| v[*i].clone()).collect());
    let mut parts = first.clone();
    parts[*i] = merged;
    Some(match shape.clone() {
        Pattern::MatchSequence { .. } => Pattern::MatchSequence { patterns: parts },
        Pattern::MatchClass {
            cls,
            kwd_attrs,
            patterns,
            ..
        } => {
            let kw = parts.split_off(patterns.len());
            Pattern::MatchClass {
                cls,
                patterns: parts,
                kwd_attrs,
                kwd_patterns: kw,
            }
        }
        Pattern::MatchMapping { keys, rest, .. } => Pattern::MatchMapping {
            keys,
            patterns: parts,
            rest,
        },
        Pattern::MatchAs { name, .. } => Pattern::MatchAs {
            pattern: parts.pop().map(Box::new),
            name,
        },
        _ => return None,
    })
}
