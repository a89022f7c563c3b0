//! Opcodes of CPython 3.12+ that the older versions do not have: LOAD_SUPER_ATTR (`super().x`),
//! CALL_INTRINSIC_1 / CALL_INTRINSIC_2, LOAD_LOCALS with LOAD_FROM_DICT_OR_DEREF /
//! LOAD_FROM_DICT_OR_GLOBALS (class bodies and annotation scopes reading a name through their
//! namespace), and LOAD_FAST_AND_CLEAR, which saves a local that an inlined comprehension (PEP 709)
//! shadows (see `structure/inline_comp.rs`).

use super::{Exit, FuncVal, Sim, Val};
use crate::ast::{Alias, CmpOp, Constant, Expr, ExprContext, Stmt, UnaryOp};
use crate::error::DecompileError;
use crate::input::Const;
use framejit_bytecode::opcode::ArgKind;
use framejit_bytecode::Instr;

impl Sim<'_> {
    /// The opcodes of this module; anything else is refused as not decompiled.
    pub(super) fn step_py312(
        &mut self,
        ins: &Instr,
        raw: u32,
    ) -> Result<Option<Exit>, DecompileError> {
        let name = ins.op.name;
        match name {
            "LOAD_FAST_AND_CLEAR" => {
                // the value of a local an inlined comprehension binds: put back when it ends
                let n = self.local(ins, raw)?;
                self.stack.push(Val::Saved(n));
            }
            "LOAD_SUPER_ATTR" => self.load_super_attr(ins, raw)?,
            "LOAD_LOCALS" => self.stack.push(Val::Locals),
            "LOAD_FROM_DICT_OR_DEREF" | "LOAD_FROM_DICT_OR_GLOBALS" => {
                // the name from the namespace LOAD_LOCALS pushed, else the cell / the globals
                let n = if name == "LOAD_FROM_DICT_OR_DEREF" {
                    self.deref(ins, raw)?
                } else {
                    self.name(ins, raw)?
                };
                let namespace = match self.stack.last() {
                    Some(Val::Locals) => true,
                    Some(Val::Expr(Expr::Name { id, .. })) => id == "__classdict__",
                    _ => false,
                };
                if n == ".type_params" && namespace {
                    // a generic class body's `__type_params__ = .type_params` (the class
                    // statement's own, dropped by `class_def`); its type-parameter scope's
                    // `Generic[*.type_params]` (in a class body, through `__classdict__`)
                    self.stack.pop();
                    self.push(Expr::name(&n));
                    return Ok(None);
                }
                if n.starts_with('.') {
                    // `.type_params` and kin: a class with type parameters (PEP 695)
                    return Err(
                        self.err(ins, format!("type parameters ({n}) are not decompiled yet"))
                    );
                }
                match self.pop(ins)? {
                    Val::Locals => self.push(Expr::name(&n)),
                    // an annotation scope reads its class's namespace through the cell
                    Val::Expr(Expr::Name { id, .. }) if id == "__classdict__" => {
                        self.push(Expr::name(&n))
                    }
                    other => {
                        return Err(self.err(ins, format!("{name} on {other:?}, not the namespace")))
                    }
                }
            }
            "CALL_INTRINSIC_1" => self.intrinsic_1(ins, raw)?,
            "CALL_INTRINSIC_2" => self.intrinsic_2(ins, raw)?,
            "LOAD_SPECIAL" => self.load_special(ins, raw)?,
            "BUILD_INTERPOLATION" => self.build_interpolation(ins, raw)?,
            "BUILD_TEMPLATE" => self.build_template(ins)?,
            _ => return Err(self.err(ins, format!("{name} is not decompiled yet"))),
        }
        Ok(None)
    }

    /// 3.14 `with`: `COPY 1; LOAD_SPECIAL __exit__; SWAP 2; SWAP 3; LOAD_SPECIAL __enter__; CALL 0`
    /// leaves `__exit__` and the manager under the `__enter__()` result (as BEFORE_WITH did).
    fn load_special(&mut self, ins: &Instr, raw: u32) -> Result<(), DecompileError> {
        let cm = self.pop_expr(ins)?;
        match Self::named(ins, raw) {
            // (`async with`: the same with `__aexit__` / `__aenter__`, whose call is awaited)
            Some("__exit__" | "__aexit__") => {
                if self.stack.last() != Some(&Val::Expr(cm.clone())) {
                    return Err(self.err(
                        ins,
                        "LOAD_SPECIAL __exit__ of something other than a copied manager",
                    ));
                }
                // the manager's copy: used by the exit call, not evaluated again
                if let Some(k) = self.impure_copies.iter().position(|c| *c == cm) {
                    self.impure_copies.remove(k);
                }
                self.stack.push(Val::WithExit);
                self.stack.push(Val::WithExit);
            }
            Some(enter @ ("__enter__" | "__aenter__")) => {
                // a method pair: CALL 0 makes it the BEFORE_WITH form, WITH_ENTER(cm)
                // (BEFORE_ASYNC_WITH's ASYNC_WITH_ENTER(cm))
                if self.stack.last() != Some(&Val::WithExit) {
                    return Err(self.err(
                        ins,
                        format!("LOAD_SPECIAL {enter} without the exit under it"),
                    ));
                }
                self.push(Expr::name(if enter == "__enter__" {
                    super::WITH_ENTER
                } else {
                    super::awaits::ASYNC_WITH_ENTER
                }));
                self.push(cm);
            }
            other => {
                return Err(self.err(
                    ins,
                    format!(
                        "LOAD_SPECIAL {} is not decompiled yet",
                        other.unwrap_or("?")
                    ),
                ))
            }
        }
        Ok(())
    }

    /// `obj[key]` (BINARY_SUBSCR; 3.14 BINARY_OP `[]`).
    pub(super) fn subscript(&mut self, ins: &Instr) -> Result<(), DecompileError> {
        let key = self.pop_expr(ins)?;
        let obj = self.pop_expr(ins)?;
        self.push(Expr::Subscript {
            value: Box::new(obj),
            slice: Box::new(key),
            ctx: ExprContext::Load,
        });
        Ok(())
    }

    /// `__classdict__ = LOAD_LOCALS` of a class body (the cell annotation scopes read it through).
    pub(super) fn is_classdict_store(&self, target: &Expr) -> bool {
        self.code.flags & crate::input::flags::OPTIMIZED == 0
            && matches!(target, Expr::Name { id, .. } if id == "__classdict__")
    }

    /// `super().attr` / `super(C, self).attr` (3.12+): `super`, the class and the instance on the
    /// stack; bit 0 of the argument: a method load, bit 1: the two-argument form.
    fn load_super_attr(&mut self, ins: &Instr, raw: u32) -> Result<(), DecompileError> {
        let shift = match ins.op.arg {
            ArgKind::Name { shift } => shift,
            _ => 2,
        };
        let attr = self.name(ins, raw >> shift)?;
        let this = self.pop_expr(ins)?;
        let class = self.pop_expr(ins)?;
        let func = self.pop_expr(ins)?;
        let args = if raw & 2 != 0 {
            vec![class, this]
        } else {
            // zero-argument super(): the compiler passes the __class__ cell and the first argument
            let first = self.code.fast_names().first().map(|s| s.to_string());
            let is_class = matches!(&class, Expr::Name { id, .. } if id == "__class__");
            let is_first = matches!(&this, Expr::Name { id, .. } if Some(id) == first.as_ref());
            if !is_class || !is_first || self.code.argcount == 0 {
                return Err(self.err(
                    ins,
                    "a zero-argument super() that does not pass __class__ and the first argument",
                ));
            }
            Vec::new()
        };
        if !matches!(&func, Expr::Name { .. }) {
            return Err(self.err(ins, "LOAD_SUPER_ATTR on something other than a name"));
        }
        let e = Expr::Attribute {
            value: Box::new(Expr::Call {
                func: Box::new(func),
                args,
                keywords: Vec::new(),
            }),
            attr,
            ctx: ExprContext::Load,
        };
        if raw & 1 == 1 {
            // method form, as LOAD_ATTR's: one callable for the CALL that follows
            self.stack.push(Val::Null);
        }
        self.push(e);
        Ok(())
    }

    fn intrinsic_1(&mut self, ins: &Instr, raw: u32) -> Result<(), DecompileError> {
        match Self::named(ins, raw) {
            Some("INTRINSIC_LIST_TO_TUPLE") => {
                let v = self.pop_expr(ins)?;
                self.push(match v {
                    Expr::List { elts, .. } => Expr::Tuple {
                        elts,
                        ctx: ExprContext::Load,
                    },
                    other => other,
                });
            }
            Some("INTRINSIC_UNARY_POSITIVE") => {
                let v = self.pop_expr(ins)?;
                self.push(Expr::UnaryOp {
                    op: UnaryOp::UAdd,
                    operand: Box::new(v),
                });
            }
            Some("INTRINSIC_IMPORT_STAR") => match self.pop(ins)? {
                Val::Module { name, level, .. } => {
                    self.from_import = None;
                    let module = (!name.is_empty()).then_some(name);
                    self.out.push(Stmt::ImportFrom {
                        module,
                        names: vec![Alias {
                            name: "*".into(),
                            asname: None,
                        }],
                        level,
                    });
                    // the intrinsic's result (None) is popped by the statement's POP_TOP
                    self.pending_pop_module = true;
                }
                _ => return Err(self.err(ins, "import * without a module")),
            },
            Some(
                which @ ("INTRINSIC_TYPEVAR"
                | "INTRINSIC_PARAMSPEC"
                | "INTRINSIC_TYPEVARTUPLE"
                | "INTRINSIC_TYPEALIAS"
                | "INTRINSIC_SUBSCRIPT_GENERIC"),
            ) => self.type_param_intrinsic_1(ins, which)?,
            other => {
                return Err(self.err(
                    ins,
                    format!(
                        "CALL_INTRINSIC_1 {} is not decompiled yet",
                        other.unwrap_or("?")
                    ),
                ))
            }
        }
        Ok(())
    }

    /// 3.14 (PEP 649): the function's annotations from its `__annotate__` function, whose body is
    /// `if format > 2: raise NotImplementedError` then `return {name: annotation, ...}`.
    pub(super) fn set_annotate(
        &self,
        ins: &Instr,
        f: &mut FuncVal,
        annotate: Val,
    ) -> Result<(), DecompileError> {
        let code = match &annotate {
            Val::Function(a) => match self.code.consts.get(a.code) {
                Some(Const::Code(c)) if c.name == "__annotate__" => c,
                _ => return Err(self.err(ins, "an annotate function that is not __annotate__")),
            },
            _ => return Err(self.err(ins, "an annotate attribute that is not a function")),
        };
        let bad = || {
            self.err(
                ins,
                "an __annotate__ function of a shape this decompiler does not know",
            )
        };
        let body = crate::structure::Structurer::statements(code)
            .map_err(|e| self.err(ins, format!("__annotate__: {}", e.message)))?;
        let format = code.varnames.first().ok_or_else(bad)?;
        let guard_ok = |s: &Stmt| match s {
            Stmt::If { test, body, orelse } if orelse.is_empty() => {
                let test_ok = matches!(test, Expr::Compare { left, ops, comparators }
                    if matches!(left.as_ref(), Expr::Name { id, .. } if id == format)
                        && ops.as_slice() == [CmpOp::Gt]
                        && matches!(comparators.as_slice(), [Expr::Constant { value: Constant::Int(i), .. }] if i == "2"));
                let raise_ok = matches!(body.as_slice(), [Stmt::Raise { exc: Some(Expr::Name { id, .. }), cause: None }]
                    if id == "NotImplementedError");
                test_ok && raise_ok
            }
            _ => false,
        };
        let (keys, values) = match body.as_slice() {
            [guard, Stmt::Return {
                value: Some(Expr::Dict { keys, values }),
            }] if guard_ok(guard) => (keys, values),
            _ => return Err(bad()),
        };
        for (k, v) in keys.iter().zip(values) {
            let name = match k {
                Some(Expr::Constant {
                    value: Constant::Str(s),
                    ..
                }) => s.to_string_lossless().ok_or_else(bad)?,
                _ => return Err(bad()),
            };
            f.annotations.push((
                crate::private_names::key_as_written(self.code, name),
                v.clone(),
            ));
        }
        Ok(())
    }
}
