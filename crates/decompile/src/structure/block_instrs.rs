//! A block's instructions as `Structurer::instrs` hands them out: every block's listed once, in one
//! list, when the structurer is made, and shared by reference count after that (the structurer asks for a block's
//! instructions dozens of times per code object; building a list each time was a fifth of its
//! allocations). Reads as the `Vec<&Instr>` it replaces: a slice, iterable by value and by reference.

use std::ops::Deref;
use std::rc::Rc;

use framejit_bytecode::Instr;

#[derive(Clone, Debug)]
pub(crate) struct Instrs<'a> {
    all: Rc<Vec<&'a Instr>>,
    start: usize,
    end: usize,
}

impl<'a> Instrs<'a> {
    /// Each block's part of one shared list: `lists` gives the blocks' instructions in order;
    /// `room`, how many there may be in all (the list is made once at that size and shared as it
    /// is, not grown block by block and copied again into a slice).
    pub(crate) fn split<I>(room: usize, lists: impl Iterator<Item = I>) -> Vec<Instrs<'a>>
    where
        I: Iterator<Item = &'a Instr>,
    {
        let mut flat: Vec<&'a Instr> = Vec::with_capacity(room);
        let mut bounds = Vec::with_capacity(lists.size_hint().0);
        for list in lists {
            let start = flat.len();
            // (a filtered list says how long it may be: room made once per block, not per push)
            flat.reserve(list.size_hint().1.unwrap_or(0));
            flat.extend(list);
            bounds.push((start, flat.len()));
        }
        let all = Rc::new(flat);
        bounds
            .into_iter()
            .map(|(start, end)| Instrs {
                all: all.clone(),
                start,
                end,
            })
            .collect()
    }

    /// One block holding all of `list` (straight-line code).
    pub(crate) fn whole(list: Vec<&'a Instr>) -> Instrs<'a> {
        let end = list.len();
        Instrs {
            all: Rc::new(list),
            start: 0,
            end,
        }
    }

    fn slice(&self) -> &[&'a Instr] {
        self.all.get(self.start..self.end).unwrap_or(&[])
    }
}

impl<'a> Deref for Instrs<'a> {
    type Target = [&'a Instr];
    fn deref(&self) -> &[&'a Instr] {
        self.slice()
    }
}

/// By value: the instructions themselves, in order.
pub(crate) struct IntoIter<'a> {
    list: Instrs<'a>,
    next: usize,
}

impl<'a> Iterator for IntoIter<'a> {
    type Item = &'a Instr;
    fn next(&mut self) -> Option<&'a Instr> {
        let ins = self.list.slice().get(self.next).copied();
        self.next += 1;
        ins
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.list.len().saturating_sub(self.next);
        (left, Some(left))
    }
}

impl<'a> IntoIterator for Instrs<'a> {
    type Item = &'a Instr;
    type IntoIter = IntoIter<'a>;
    fn into_iter(self) -> IntoIter<'a> {
        IntoIter {
            list: self,
            next: 0,
        }
    }
}

impl<'b, 'a> IntoIterator for &'b Instrs<'a> {
    type Item = &'b &'a Instr;
    type IntoIter = std::slice::Iter<'b, &'a Instr>;
    fn into_iter(self) -> Self::IntoIter {
        self.slice().iter()
    }
}
