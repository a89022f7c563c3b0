//! PEP 695 (3.12+): type parameters of functions and classes, and the `type` statement.
//!
//! What the compiler writes:
//!
//! - `def f[T](...)` / `class C[T](...)` / `type A[T] = ...`: the enclosing code makes and calls a
//!   function of its own, `<generic parameters of NAME>` (the type-parameter scope), whose arguments
//!   are the function's defaults and keyword defaults (`.defaults`, `.kwdefaults`), evaluated in the
//!   enclosing code. The scope binds each type parameter (`LOAD_CONST name; CALL_INTRINSIC_1
//!   INTRINSIC_TYPEVAR` / `_PARAMSPEC` / `_TYPEVARTUPLE`, or CALL_INTRINSIC_2
//!   INTRINSIC_TYPEVAR_WITH_BOUND / _WITH_CONSTRAINTS with a function computing the bound; 3.13+
//!   CALL_INTRINSIC_2 INTRINSIC_SET_TYPEPARAM_DEFAULT with a function computing the default; then
//!   `COPY 1; STORE name`), collects them in a tuple, and returns
//!   - a function: made as usual, then CALL_INTRINSIC_2 INTRINSIC_SET_FUNCTION_TYPE_PARAMS;
//!   - a class: the tuple stored in `.type_params`, `Generic[*params]` (CALL_INTRINSIC_1
//!     INTRINSIC_SUBSCRIPT_GENERIC) in `.generic_base`, which the `__build_class__` call takes as its
//!     last base; the class body stores `__type_params__` from `.type_params`;
//!   - a type alias: CALL_INTRINSIC_1 INTRINSIC_TYPEALIAS of `(name, params, value function)`.
//! - `type A = ...` without parameters: `(name, None, value function)` and INTRINSIC_TYPEALIAS in
//!   the enclosing code itself.
//! - The bounds, constraints, defaults and alias values are evaluated lazily: each is a function of
//!   its own (an annotation scope: no arguments, 3.14 one, `.format`, behind the guard
//!   `if .format > 2: raise NotImplementedError`) whose body returns the expression.
//!
//! Decompiling: the intrinsics push marker expressions ([`TYPE_PARAM`], [`TYPE_ALIAS`]); a value
//! function in a tuple is a [`LAZY`] marker until INTRINSIC_TYPEALIAS takes it. The call of a
//! type-parameter scope runs the scope's code (straight-line code only) with its arguments standing
//! for `.defaults` / `.kwdefaults`, and gives the `def` / `class` statement with its type
//! parameters ([`Val::Def`]) or the alias marker, which a store of the same name makes a statement.
//! Any other shape is refused.

use super::{FuncVal, Sim, Val};
use crate::ast::{Constant, Expr, ExprContext, Keyword, Stmt, TypeParam};
use crate::error::DecompileError;
use crate::input::{flags, CodeInput, Const};
use framejit_bytecode::{Instr, Item, PyVersion};

/// `TYPE_PARAM(kind, name, bound=.., constraints=.., default=..)`: a type parameter made by the
/// intrinsics (kind `TypeVar`, `ParamSpec` or `TypeVarTuple`).
pub const TYPE_PARAM: &str = "\u{0}type_param";
/// `LAZY(i)`: the function made of `co_consts[i]` used as a value (an alias value function).
pub const LAZY: &str = "\u{0}lazy_value";
/// `TYPE_ALIAS(name, (params..) or None, value)`: what INTRINSIC_TYPEALIAS made.
pub const TYPE_ALIAS: &str = "\u{0}type_alias";
/// The keyword of a [`TYPE_ALIAS`] marker that its type-parameter scope made (and checked).
const SCOPED: &str = "\u{0}scoped";
/// `Generic[*params]` of a class's type-parameter scope (INTRINSIC_SUBSCRIPT_GENERIC).
const GENERIC_BASE: &str = "\u{0}generic_base";
/// The name of a type-parameter scope's code object, before the name of what it makes.
const SCOPE_PREFIX: &str = "<generic parameters of ";

/// The name of what a type-parameter scope makes (`None`: not such a scope).
pub fn scope_of(code: &CodeInput) -> Option<&str> {
    if code.version < PyVersion::V3_12 {
        return None;
    }
    code.name.strip_prefix(SCOPE_PREFIX)?.strip_suffix('>')
}

fn marker(name: &str, args: Vec<Expr>, keywords: Vec<Keyword>) -> Expr {
    Expr::Call {
        func: Box::new(Expr::name(name)),
        args,
        keywords,
    }
}

fn text(e: &Expr) -> Option<String> {
    match e {
        Expr::Constant {
            value: Constant::Str(s),
            ..
        } => s.to_string_lossless(),
        _ => None,
    }
}

/// The parts of a marker call of `name`.
fn marker_parts<'e>(e: &'e Expr, name: &str) -> Option<(&'e [Expr], &'e [Keyword])> {
    match e {
        Expr::Call {
            func,
            args,
            keywords,
        } if matches!(func.as_ref(), Expr::Name { id, .. } if id == name) => {
            Some((args.as_slice(), keywords.as_slice()))
        }
        _ => None,
    }
}

/// A [`TYPE_PARAM`] marker as the type parameter it stands for.
fn type_param(e: &Expr) -> Option<TypeParam> {
    let (args, keywords) = marker_parts(e, TYPE_PARAM)?;
    let [kind, name] = args else { return None };
    let (kind, name) = (text(kind)?, text(name)?);
    let mut bound = None;
    let mut default_value = None;
    for k in keywords {
        match k.arg.as_deref() {
            Some("bound" | "constraints") if bound.is_none() => bound = Some(k.value.clone()),
            Some("default") if default_value.is_none() => default_value = Some(k.value.clone()),
            _ => return None,
        }
    }
    Some(match kind.as_str() {
        "TypeVar" => TypeParam::TypeVar {
            name,
            bound,
            default_value,
        },
        "ParamSpec" if bound.is_none() => TypeParam::ParamSpec {
            name,
            default_value,
        },
        "TypeVarTuple" if bound.is_none() => TypeParam::TypeVarTuple {
            name,
            default_value,
        },
        _ => return None,
    })
}

fn param_name(p: &TypeParam) -> &str {
    match p {
        TypeParam::TypeVar { name, .. }
        | TypeParam::ParamSpec { name, .. }
        | TypeParam::TypeVarTuple { name, .. } => name,
    }
}

/// The type parameters of a tuple of markers, which the scope bound, in order, to their names.
fn params_of(elts: &[Expr], bound_names: &[String]) -> Result<Vec<TypeParam>, String> {
    let params = elts
        .iter()
        .map(type_param)
        .collect::<Option<Vec<_>>>()
        .ok_or("type parameters that are not the intrinsics' own")?;
    let names: Vec<&str> = params.iter().map(param_name).collect();
    if names != bound_names.iter().map(String::as_str).collect::<Vec<_>>() {
        return Err(format!(
            "type parameters {names:?} are not the names the scope binds ({bound_names:?})"
        ));
    }
    Ok(params)
}

fn is_tuple(e: &Expr) -> bool {
    matches!(
        e,
        Expr::Tuple { .. }
            | Expr::Constant {
                value: Constant::Tuple(_),
                ..
            }
    )
}

/// 3.14: `if .format > 2: raise NotImplementedError`, the guard of a compiler-made annotation scope.
pub(super) fn is_format_guard(s: &Stmt, format: &str) -> bool {
    match s {
        Stmt::If { test, body, orelse } if orelse.is_empty() => {
            let test_ok = matches!(test, Expr::Compare { left, ops, comparators }
                if matches!(left.as_ref(), Expr::Name { id, .. } if id == format)
                    && ops.as_slice() == [crate::ast::CmpOp::Gt]
                    && matches!(comparators.as_slice(), [Expr::Constant { value: Constant::Int(i), .. }] if i == "2"));
            let raise_ok = matches!(body.as_slice(), [Stmt::Raise { exc: Some(Expr::Name { id, .. }), cause: None }]
                if id == "NotImplementedError");
            test_ok && raise_ok
        }
        _ => false,
    }
}

/// The expression a lazily evaluated bound, constraint tuple, default or alias value function
/// returns (its body is `return EXPR`; 3.14 after the format guard).
fn lazy_body(code: &CodeInput) -> Result<Expr, String> {
    let odd = flags::VARARGS
        | flags::VARKEYWORDS
        | flags::GENERATOR
        | flags::COROUTINE
        | flags::ASYNC_GENERATOR
        | flags::ITERABLE_COROUTINE;
    let args_ok = if code.version >= PyVersion::V3_14 {
        code.argcount == 1 && code.varnames.first().map(String::as_str) == Some(".format")
    } else {
        code.argcount == 0
    };
    if code.flags & flags::OPTIMIZED == 0
        || code.flags & odd != 0
        || code.kwonlyargcount != 0
        || !args_ok
    {
        return Err(format!(
            "{} is not a lazily evaluated type-parameter or alias value",
            code.name
        ));
    }
    let body = crate::structure::Structurer::statements(code)
        .map_err(|e| format!("{}: {}", code.name, e.message))?;
    match body.as_slice() {
        [Stmt::Return { value: Some(e) }] if code.version < PyVersion::V3_14 => Ok(e.clone()),
        [guard, Stmt::Return { value: Some(e) }]
            if code.version >= PyVersion::V3_14 && is_format_guard(guard, ".format") =>
        {
            Ok(e.clone())
        }
        _ => Err(format!(
            "{}: a lazily evaluated value of a shape this decompiler does not know",
            code.name
        )),
    }
}

impl Sim<'_> {
    /// A function made of `co_consts[i]` used as a value: the alias value function of `type X =
    /// ...` goes into a tuple for INTRINSIC_TYPEALIAS (`None`: not such a function).
    pub(super) fn lazy_marker(&self, f: &FuncVal) -> Option<Expr> {
        let Some(Const::Code(code)) = self.code.consts.get(f.code) else {
            return None;
        };
        let plain = f.kwdefaults.is_empty() && f.annotations.is_empty() && f.decorators.is_empty();
        (self.code.version >= PyVersion::V3_12 && plain && lazy_body_shape(code, f)).then(|| {
            marker(
                LAZY,
                vec![Expr::constant(Constant::Int(f.code.to_string()))],
                Vec::new(),
            )
        })
    }

    /// The expression of a lazily evaluated value: a function (the intrinsics' argument) or a
    /// [`LAZY`] marker.
    fn lazy_value(&self, ins: &Instr, v: Val) -> Result<Expr, DecompileError> {
        let index = match &v {
            Val::Function(f) if self.lazy_marker(f).is_some() => f.code,
            Val::Expr(e) => match marker_parts(e, LAZY) {
                Some((
                    [Expr::Constant {
                        value: Constant::Int(i),
                        ..
                    }],
                    [],
                )) => i
                    .parse::<usize>()
                    .map_err(|_| self.err(ins, "a lazy value marker without its index"))?,
                _ => return Err(self.err(ins, "a lazily evaluated value that is not a function")),
            },
            _ => return Err(self.err(ins, "a lazily evaluated value that is not a function")),
        };
        match self.code.consts.get(index) {
            Some(Const::Code(code)) => lazy_body(code).map_err(|m| self.err(ins, m)),
            _ => Err(self.err(ins, "a lazily evaluated value that is not code")),
        }
    }

    /// INTRINSIC_TYPEVAR / _PARAMSPEC / _TYPEVARTUPLE (the name on the stack) and
    /// INTRINSIC_TYPEALIAS (the tuple `(name, params or None, value)`).
    pub(super) fn type_param_intrinsic_1(
        &mut self,
        ins: &Instr,
        which: &str,
    ) -> Result<(), DecompileError> {
        let kind = match which {
            "INTRINSIC_TYPEVAR" => "TypeVar",
            "INTRINSIC_PARAMSPEC" => "ParamSpec",
            "INTRINSIC_TYPEVARTUPLE" => "TypeVarTuple",
            "INTRINSIC_TYPEALIAS" => return self.type_alias(ins),
            other => {
                return Err(self.err(
                    ins,
                    format!("CALL_INTRINSIC_1 {other} outside a type-parameter scope"),
                ))
            }
        };
        let name = self.pop_expr(ins)?;
        if text(&name).is_none() {
            return Err(self.err(ins, format!("{which} of something other than a name")));
        }
        let kind = Expr::constant(Constant::str(kind));
        self.push(marker(TYPE_PARAM, vec![kind, name], Vec::new()));
        Ok(())
    }

    fn type_alias(&mut self, ins: &Instr) -> Result<(), DecompileError> {
        let bad = |s: &Self| {
            s.err(
                ins,
                "INTRINSIC_TYPEALIAS of something other than (name, params, value)",
            )
        };
        let elts = match self.pop_expr(ins)? {
            Expr::Tuple { elts, .. } if elts.len() == 3 => elts,
            _ => return Err(bad(self)),
        };
        let [name, params, value] = <[Expr; 3]>::try_from(elts).map_err(|_| bad(self))?;
        if text(&name).is_none() {
            return Err(bad(self));
        }
        let params = match params {
            Expr::Constant {
                value: Constant::None,
                ..
            } => Expr::Tuple {
                elts: Vec::new(),
                ctx: ExprContext::Load,
            },
            p @ Expr::Tuple { .. } => p,
            _ => return Err(bad(self)),
        };
        let value = self.lazy_value(ins, Val::Expr(value))?;
        self.push(marker(TYPE_ALIAS, vec![name, params, value], Vec::new()));
        Ok(())
    }

    /// CALL_INTRINSIC_2: a type variable's bound or constraints, a type parameter's default.
    pub(super) fn intrinsic_2(&mut self, ins: &Instr, raw: u32) -> Result<(), DecompileError> {
        let which = Self::named(ins, raw).unwrap_or("?");
        match which {
            "INTRINSIC_TYPEVAR_WITH_BOUND" | "INTRINSIC_TYPEVAR_WITH_CONSTRAINTS" => {
                let f = self.pop(ins)?;
                let name = self.pop_expr(ins)?;
                if text(&name).is_none() {
                    return Err(self.err(ins, format!("{which} of something other than a name")));
                }
                let v = self.lazy_value(ins, f)?;
                // a parenthesised tuple after the colon is the constraints, anything else a bound
                let constraints = which == "INTRINSIC_TYPEVAR_WITH_CONSTRAINTS";
                if is_tuple(&v) != constraints {
                    return Err(self.err(
                        ins,
                        format!(
                            "{which} whose value is {}a tuple",
                            if constraints { "not " } else { "" }
                        ),
                    ));
                }
                let kw = Keyword {
                    arg: Some(if constraints { "constraints" } else { "bound" }.into()),
                    value: v,
                };
                let kind = Expr::constant(Constant::str("TypeVar"));
                self.push(marker(TYPE_PARAM, vec![kind, name], vec![kw]));
            }
            "INTRINSIC_SET_TYPEPARAM_DEFAULT" => {
                let f = self.pop(ins)?;
                let tp = self.pop_expr(ins)?;
                let v = self.lazy_value(ins, f)?;
                match tp {
                    Expr::Call {
                        func,
                        args,
                        mut keywords,
                    } if marker_parts_ok(&func, &keywords) => {
                        keywords.push(Keyword {
                            arg: Some("default".into()),
                            value: v,
                        });
                        self.push(Expr::Call {
                            func,
                            args,
                            keywords,
                        });
                    }
                    _ => {
                        return Err(self.err(ins, "a type-parameter default set on something else"))
                    }
                }
            }
            _ => {
                return Err(self.err(
                    ins,
                    format!("CALL_INTRINSIC_2 {which} is not decompiled here"),
                ))
            }
        }
        Ok(())
    }

    /// Is `f` a function made of a type-parameter scope?
    pub(super) fn is_type_param_scope(&self, f: &FuncVal) -> bool {
        matches!(self.code.consts.get(f.code), Some(Const::Code(c)) if scope_of(c).is_some())
    }

    /// The call of a type-parameter scope (its arguments: the defaults and keyword defaults of the
    /// function it makes): pushes the `def` / `class` statement it stands for, or the alias marker.
    pub(super) fn type_param_scope_call(
        &mut self,
        ins: &Instr,
        f: &FuncVal,
        vals: Vec<Val>,
        kwnames: &[String],
    ) -> Result<(), DecompileError> {
        let Some(Const::Code(scope)) = self.code.consts.get(f.code) else {
            return Err(self.err(ins, "a type-parameter scope that is not code"));
        };
        let plain = f.defaults.is_empty()
            && f.kwdefaults.is_empty()
            && f.annotations.is_empty()
            && f.decorators.is_empty();
        if !plain
            || !kwnames.is_empty()
            || vals.len() != scope.argcount as usize
            || scope.kwonlyargcount != 0
            || scope.flags & (flags::VARARGS | flags::VARKEYWORDS) != 0
            || scope.is_generator()
        {
            return Err(self.err(ins, "a call of a type-parameter scope of an unknown shape"));
        }
        let mut args = Vec::with_capacity(vals.len());
        for v in vals {
            args.push(self.expr_of(ins, v)?);
        }
        let made = type_param_scope(scope, &args)
            .map_err(|e| self.err(ins, format!("{}: {}", scope.name, e.message)))?;
        self.stack.push(made);
        Ok(())
    }

    /// A store of a [`TYPE_ALIAS`] marker: the `type` statement (`None`: not such a value).
    pub(super) fn type_alias_store(
        &self,
        ins: &Instr,
        value: &Expr,
        target: &Expr,
    ) -> Result<Option<Stmt>, DecompileError> {
        let Some((args, keywords)) = marker_parts(value, TYPE_ALIAS) else {
            return Ok(None);
        };
        let [name, Expr::Tuple { elts, .. }, v] = args else {
            return Err(self.err(ins, "a type alias marker of an unknown shape"));
        };
        // type parameters only from a type-parameter scope, which bound them (SCOPED)
        let scoped = matches!(keywords, [k] if k.arg.as_deref() == Some(SCOPED));
        if scoped == elts.is_empty() || !(scoped || keywords.is_empty()) {
            return Err(self.err(
                ins,
                "a type alias with type parameters not made by its type-parameter scope",
            ));
        }
        let name = text(name).ok_or_else(|| self.err(ins, "a type alias without its name"))?;
        let mangled = super::mangle(&self.code.name, &name);
        if !matches!(target, Expr::Name { id, .. } if *id == name || Some(id) == mangled.as_ref()) {
            return Err(self.err(ins, format!("type alias {name} stored under another name")));
        }
        // (the scope checked the names a generic alias binds; `type X = v` has none)
        let names: Vec<String> = elts
            .iter()
            .filter_map(type_param)
            .map(|p| param_name(&p).to_string())
            .collect();
        let type_params = params_of(elts, &names).map_err(|m| self.err(ins, m))?;
        Ok(Some(Stmt::TypeAlias {
            name: Expr::name(&name),
            type_params,
            value: v.clone(),
        }))
    }
}

fn marker_parts_ok(func: &Expr, keywords: &[Keyword]) -> bool {
    matches!(func, Expr::Name { id, .. } if id == TYPE_PARAM)
        && !keywords.iter().any(|k| k.arg.as_deref() == Some("default"))
}

/// Is `code` (made into `f`) shaped as a lazily evaluated value: an annotation scope's arguments
/// (none; 3.14 `.format` with its default 1)?
fn lazy_body_shape(code: &CodeInput, f: &FuncVal) -> bool {
    let one = Expr::constant(Constant::Int("1".into()));
    if code.version >= PyVersion::V3_14 {
        code.argcount == 1
            && code.varnames.first().map(String::as_str) == Some(".format")
            && f.defaults.as_slice() == [one]
    } else {
        code.argcount == 0 && f.defaults.is_empty()
    }
}

/// Run a type-parameter scope (straight-line code) with `args` for its parameters (`.defaults`,
/// `.kwdefaults`): the [`Val::Def`] of the function or class it makes, or the alias marker.
fn type_param_scope(scope: &CodeInput, args: &[Expr]) -> Result<Val, DecompileError> {
    let err = |m: String| DecompileError::new(scope, m);
    let made_name = scope_of(scope).ok_or_else(|| err("not a type-parameter scope".into()))?;
    let mut instrs: Vec<Instr> = Vec::new();
    for item in &scope.bytecode.items {
        match item {
            Item::Instr(i) if i.op.is_jump() => {
                return Err(err(
                    "a type-parameter scope with control flow (a conditional in a base or \
                     annotation) is not decompiled"
                        .into(),
                ))
            }
            Item::Instr(i) => instrs.push(*i),
            Item::Label(_) => {}
            Item::TryBegin(_) | Item::TryEnd => {
                return Err(err("a type-parameter scope with an exception range".into()))
            }
        }
    }
    let names = scope.fast_names();
    let store_name = |i: &Instr| -> Option<String> {
        match i.op.name {
            "STORE_FAST" => names.get(i.raw_arg() as usize).map(|s| s.to_string()),
            // 3.13+ the store half of a superinstruction
            "STORE_FAST_LOAD_FAST" => names
                .get((i.raw_arg() >> 4) as usize)
                .map(|s| s.to_string()),
            "STORE_DEREF" => scope.deref_name(i.raw_arg()).map(str::to_string),
            _ => None,
        }
    };
    let argc = args.len();
    let mut sim = Sim::new(scope, Vec::new());
    // the names the scope binds its type parameters to, in order
    let mut bound: Vec<String> = Vec::new();
    let mut class_params: Option<Vec<Expr>> = None;
    let mut generic_base = false;
    let mut function_params: Option<Vec<Expr>> = None;
    let mut result = None;
    let mut k = 0;
    while k < instrs.len() {
        let ins = &instrs[k];
        let raw = ins.raw_arg();
        let op_err = |m: String| DecompileError::new(scope, m).op(ins.op.name);
        match ins.op.name {
            // the scope's arguments: the defaults the enclosing code evaluated
            "LOAD_FAST" | "LOAD_FAST_BORROW" | "LOAD_FAST_CHECK" if (raw as usize) < argc => {
                sim.push(args[raw as usize].clone());
            }
            "LOAD_FAST_LOAD_FAST" | "LOAD_FAST_BORROW_LOAD_FAST_BORROW"
                if ((raw >> 4) as usize) < argc || ((raw & 15) as usize) < argc =>
            {
                let (a, b) = ((raw >> 4) as usize, (raw & 15) as usize);
                match (args.get(a), args.get(b)) {
                    (Some(x), Some(y)) => {
                        sim.push(x.clone());
                        sim.push(y.clone());
                    }
                    _ => return Err(op_err("a scope argument loaded with a local".into())),
                }
            }
            // `COPY 1; STORE name`: the type parameter bound in the scope, the copy left for the tuple
            "COPY"
                if raw == 1
                    && matches!(sim.stack.last(), Some(Val::Expr(e)) if type_param(e).is_some()) =>
            {
                let Some(Val::Expr(top)) = sim.stack.last() else {
                    return Err(op_err("stack underflow".into()));
                };
                let want = type_param(top).map(|p| param_name(&p).to_string());
                let got = instrs.get(k + 1).and_then(store_name);
                // (`__T` in a class, or of a class, is stored mangled: `_C__T`)
                let mangled = |g: &str, w: &str| {
                    w.starts_with("__")
                        && !w.ends_with("__")
                        && g.strip_suffix(w).is_some_and(|c| {
                            c.starts_with('_') && c.len() > 1 && !c[1..].starts_with('_')
                        })
                };
                let same = match (&got, &want) {
                    (Some(g), Some(w)) => g == w || mangled(g, w),
                    _ => false,
                };
                if !same {
                    return Err(op_err(format!("type parameter {want:?} bound to {got:?}")));
                }
                bound.extend(want);
                k += 2;
                continue;
            }
            "STORE_FAST" | "STORE_DEREF" | "STORE_FAST_LOAD_FAST" => {
                let n = store_name(ins).ok_or_else(|| op_err("a local out of range".into()))?;
                match (n.as_str(), sim.stack.pop()) {
                    (".type_params", Some(Val::Expr(Expr::Tuple { elts, .. })))
                        if class_params.is_none() =>
                    {
                        class_params = Some(elts)
                    }
                    (".generic_base", Some(Val::Expr(Expr::Name { id, .. })))
                        if id == GENERIC_BASE && !generic_base =>
                    {
                        generic_base = true
                    }
                    (other, v) => {
                        return Err(op_err(format!(
                            "a store of {other} ({v:?}) in a type-parameter scope"
                        )))
                    }
                }
                if ins.op.name == "STORE_FAST_LOAD_FAST" {
                    let n = names
                        .get((raw & 15) as usize)
                        .filter(|_| ((raw & 15) as usize) >= argc)
                        .ok_or_else(|| op_err("a load of a scope argument after a store".into()))?;
                    sim.push(Expr::name(n));
                }
            }
            "CALL_INTRINSIC_1" if Sim::named(ins, raw) == Some("INTRINSIC_SUBSCRIPT_GENERIC") => {
                match sim.stack.pop() {
                    Some(Val::Expr(Expr::Name { id, .. }))
                        if id == ".type_params" && class_params.is_some() =>
                    {
                        sim.push(Expr::name(GENERIC_BASE))
                    }
                    _ => {
                        return Err(op_err(
                            "Generic[...] of something other than .type_params".into(),
                        ))
                    }
                }
            }
            "CALL_INTRINSIC_2"
                if Sim::named(ins, raw) == Some("INTRINSIC_SET_FUNCTION_TYPE_PARAMS") =>
            {
                match (sim.stack.pop(), sim.stack.pop()) {
                    (Some(Val::Expr(Expr::Tuple { elts, .. })), Some(f @ Val::Function(_)))
                        if function_params.is_none() =>
                    {
                        function_params = Some(elts);
                        sim.stack.push(f);
                    }
                    _ => {
                        return Err(op_err(
                            "type parameters set on something other than the function".into(),
                        ))
                    }
                }
            }
            "RETURN_VALUE" if k + 1 == instrs.len() => {
                result = sim.stack.pop();
            }
            _ => {
                if sim.step(ins)?.is_some() {
                    return Err(op_err("a type-parameter scope that leaves early".into()));
                }
            }
        }
        k += 1;
    }
    if !sim.stack.is_empty() || !sim.out.is_empty() {
        return Err(err(format!(
            "a type-parameter scope that does more than make its value ({:?} {:?})",
            sim.stack, sim.out
        )));
    }
    sim.check_copies()?;
    let inner = |i: usize| match scope.consts.get(i) {
        Some(Const::Code(c)) => Ok(c.as_ref()),
        _ => Err(err(
            "a type-parameter scope making something that is not code".into(),
        )),
    };
    match (result, class_params, function_params) {
        (Some(Val::Function(f)), None, Some(elts)) => {
            let code = inner(f.code)?;
            if code.name != made_name {
                return Err(err(format!("a scope of {made_name} making {}", code.name)));
            }
            let type_params = params_of(&elts, &bound).map_err(err)?;
            // a type parameter is never rebound (`nonlocal T` is a syntax error)
            let rebinds = code.bytecode.instrs().any(|i| {
                matches!(i.op.name, "STORE_DEREF" | "DELETE_DEREF")
                    && code.deref_name(i.raw_arg()).is_some_and(|n| {
                        code.freevars.iter().any(|f| f == n) && bound.iter().any(|b| b == n)
                    })
            });
            if rebinds {
                return Err(err(format!(
                    "{} stores a free variable named as a type parameter",
                    code.name
                )));
            }
            let mut def = crate::function_def(code, &f)
                .map_err(|e| err(format!("in {}: {}", code.name, e.message)))?;
            match &mut def {
                Stmt::FunctionDef(d) | Stmt::AsyncFunctionDef(d) => d.type_params = type_params,
                _ => return Err(err("a function that is not a def".into())),
            }
            Ok(Val::Def(Box::new(def)))
        }
        (Some(Val::Class(mut c)), Some(elts), None) if generic_base => {
            let code = inner(c.code)?;
            if c.name != made_name || code.name != made_name {
                return Err(err(format!(
                    "a scope of {made_name} making class {}",
                    c.name
                )));
            }
            // `Generic[*params]`, the last base (after a starred base list, the list's last item)
            let is_base = |e: &Expr| matches!(e, Expr::Name { id, .. } if id == ".generic_base");
            if !c.bases.last().is_some_and(is_base) {
                return Err(err(
                    "a generic class whose last base is not Generic[...]".into()
                ));
            }
            c.bases.pop();
            let type_params = params_of(&elts, &bound).map_err(err)?;
            let mut def = crate::class_def(code, &c)
                .map_err(|e| err(format!("in class {}: {}", c.name, e.message)))?;
            match &mut def {
                Stmt::ClassDef(d) => d.type_params = type_params,
                _ => return Err(err("a class that is not a class statement".into())),
            }
            Ok(Val::Def(Box::new(def)))
        }
        (Some(Val::Expr(e)), None, None) => {
            let Some((args @ [name, Expr::Tuple { elts, .. }, _], [])) =
                marker_parts(&e, TYPE_ALIAS)
            else {
                return Err(err("a type-parameter scope returning something else".into()));
            };
            if text(name).as_deref() != Some(made_name) || elts.is_empty() {
                return Err(err(format!("a scope of {made_name} making another alias")));
            }
            params_of(elts, &bound).map_err(err)?;
            let scoped = Keyword {
                arg: Some(SCOPED.into()),
                value: Expr::constant(Constant::Bool(true)),
            };
            Ok(Val::Expr(marker(TYPE_ALIAS, args.to_vec(), vec![scoped])))
        }
        _ => Err(err(
            "a type-parameter scope of a shape this decompiler does not know".into(),
        )),
    }
}
