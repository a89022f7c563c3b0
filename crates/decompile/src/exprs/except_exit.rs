//! 3.11+ ways out of an except clause (or a `finally:` handler) that carry a value: `return x`
//! evaluates `x` first, then each handler it leaves moves `x` under that handler's saved exception
//! (`SWAP n`) for `POP_EXCEPT` to restore the exception being handled before it. The saved
//! exceptions are not on the symbolic stack; the structurer tells the Sim where they would sit
//! (`saved_exc`, symbolic stack lengths, innermost last).

use super::Sim;
use crate::error::DecompileError;
use framejit_bytecode::Instr;

impl Sim<'_> {
    /// `SWAP n` right before `POP_EXCEPT`: the value on top goes under the `n - 2` values above the
    /// innermost saved exception, which the POP_EXCEPT then takes off (so, with `n == 2`, the value
    /// simply stays on top). Refused unless the saved exception is exactly `n` deep.
    pub(super) fn swap_under_saved_exc(
        &mut self,
        ins: &Instr,
        n: usize,
    ) -> Result<(), DecompileError> {
        let len = self.stack.len();
        let at = (len + 1).checked_sub(n);
        if n < 2 || at.is_none() || self.saved_exc.last().copied() != at {
            return Err(self.err(
                ins,
                "a value moved under something else than the saved exception POP_EXCEPT restores",
            ));
        }
        let at = at.unwrap_or(len);
        if let Some(v) = self.stack.pop() {
            self.stack.insert(at.min(self.stack.len()), v);
        }
        Ok(())
    }

    /// Values above where the innermost saved exception sits: computed in its handler, carried
    /// past its POP_EXCEPT (the value of a `return`).
    pub(super) fn value_over_saved_exc(&self) -> bool {
        self.saved_exc.last().is_some_and(|&p| self.stack.len() > p)
    }

    /// `POP_EXCEPT` (3.11+): the innermost saved exception is restored, leaving the stack.
    pub(super) fn pop_saved_exc(&mut self) {
        self.saved_exc.pop();
    }
}
