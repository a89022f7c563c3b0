//! 3.14 template strings (PEP 750): `t"x{a!r:>{w}}"` compiles to the tuple of its string parts,
//! one BUILD_INTERPOLATION per field (value, the field's source text, the format spec when there is
//! one; the argument says which conversion and whether a spec is there), a tuple of them, and
//! BUILD_TEMPLATE.
//!
//! A field's source text is part of the value (`Interpolation.expression`): it is printed as written,
//! which is only done where it is the printed expression up to spacing (a text that might spell
//! another expression is refused).

use super::{Sim, Val};
use crate::ast::{Constant, Conversion, Expr};
use crate::error::DecompileError;
use framejit_bytecode::Instr;

/// BUILD_INTERPOLATION's conversions, by the argument's bits 2 and up (`FVC_*`).
const CONVERSIONS: [Conversion; 4] = [
    Conversion::None,
    Conversion::Str,
    Conversion::Repr,
    Conversion::Ascii,
];

impl Sim<'_> {
    pub(super) fn build_interpolation(
        &mut self,
        ins: &Instr,
        raw: u32,
    ) -> Result<(), DecompileError> {
        let format_spec = if raw & 1 != 0 {
            Some(Box::new(self.pop_expr(ins)?))
        } else {
            None
        };
        let text = match self.pop_expr(ins)? {
            Expr::Constant {
                value: Constant::Str(s),
                ..
            } => s
                .to_string_lossless()
                .ok_or_else(|| self.err(ins, "a t-string field whose text is not a string"))?,
            _ => return Err(self.err(ins, "a t-string field whose text is not a string")),
        };
        let conversion = *CONVERSIONS
            .get((raw >> 2) as usize)
            .ok_or_else(|| self.err(ins, "an unknown t-string conversion"))?;
        let value = self.pop_expr(ins)?;
        let printed = crate::printer::print_expr(&value, self.code.version);
        let plain = |s: &str| -> String { s.chars().filter(|c| !c.is_whitespace()).collect() };
        let literal_free = !text.contains(['\'', '"', '\\', '#', '\n', '\r']);
        if printed != text && !(literal_free && plain(&printed) == plain(&text)) {
            return Err(self.err(
                ins,
                "a t-string field whose source text is not its expression as printed",
            ));
        }
        self.push(Expr::Interpolation {
            value: Box::new(value),
            str: text,
            conversion,
            format_spec,
        });
        Ok(())
    }

    pub(super) fn build_template(&mut self, ins: &Instr) -> Result<(), DecompileError> {
        let fields = match self.pop_expr(ins)? {
            Expr::Tuple { elts, .. } => elts,
            Expr::Constant {
                value: Constant::Tuple(t),
                ..
            } if t.is_empty() => Vec::new(),
            _ => return Err(self.err(ins, "BUILD_TEMPLATE without a tuple of fields")),
        };
        let strings: Vec<Expr> = match self.pop_expr(ins)? {
            Expr::Constant {
                value: Constant::Tuple(t),
                ..
            } => t.into_iter().map(Expr::constant).collect(),
            Expr::Tuple { elts, .. } => elts,
            _ => return Err(self.err(ins, "BUILD_TEMPLATE without a tuple of strings")),
        };
        if strings.len() != fields.len() + 1 {
            return Err(self.err(
                ins,
                "BUILD_TEMPLATE with strings and fields that do not alternate",
            ));
        }
        let is_str = |e: &Expr| {
            matches!(
                e,
                Expr::Constant {
                    value: Constant::Str(_),
                    ..
                }
            )
        };
        let mut values = Vec::new();
        let mut fields = fields.into_iter();
        for s in strings {
            if !is_str(&s) {
                return Err(self.err(ins, "a t-string part that is not a string"));
            }
            if !matches!(&s, Expr::Constant { value: Constant::Str(v), .. } if v.0.is_empty()) {
                values.push(s);
            }
            if let Some(f) = fields.next() {
                if !matches!(f, Expr::Interpolation { .. }) {
                    return Err(self.err(ins, "a t-string field that is not an interpolation"));
                }
                values.push(f);
            }
        }
        self.stack.push(Val::Expr(Expr::TemplateStr { values }));
        Ok(())
    }
}
