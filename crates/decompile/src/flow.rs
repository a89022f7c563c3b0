//! Control flow of a code object for structuring: basic blocks with their edges (fall-through, jump,
//! exception), dominators, post-dominators and natural loops.
//!
//! The decompiler recovers statements from these facts rather than from compiler idioms, so bytecode
//! no compiler wrote (a resume function that jumps into a loop) is handled the same way.

use framejit_bytecode::opcode::Flow;
use framejit_bytecode::opcodes::ids;
use framejit_bytecode::{Bytecode, Item, Label};
use std::collections::HashMap;

/// How control goes from one block to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EdgeKind {
    /// The next block in order (no jump taken).
    Fall,
    /// A taken jump (conditional or not; ≤3.10 block setups: to their handler).
    Jump,
    /// An exception raised in the block goes to a handler (3.11+ exception table).
    Exception,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Edge {
    pub to: usize,
    pub kind: EdgeKind,
}

/// A run of instructions entered only at its first and left only after its last.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// Indices into `Bytecode::items` of the block's instructions, in order.
    pub instrs: Vec<usize>,
    /// The label(s) placed at the block's start.
    pub labels: Vec<Label>,
    pub succs: Vec<Edge>,
    pub preds: Vec<usize>,
    /// The handler covering the block's instructions (3.11+): `(block, depth, lasti)`.
    pub handler: Option<(usize, u32, bool)>,
}

/// The blocks of a code object, in code order; block 0 is the entry.
#[derive(Clone, Debug)]
pub struct Cfg {
    pub blocks: Vec<Block>,
}

/// A loop: a header every path into the loop goes through, and the blocks that reach back to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loop {
    pub header: usize,
    /// Blocks of the loop (header included), sorted.
    pub body: Vec<usize>,
    /// Blocks with an edge back to the header.
    pub latches: Vec<usize>,
}

impl Cfg {
    /// Split `bc` into blocks: a block starts at a label, at a change of exception range, and after a
    /// jump or an exit.
    pub fn build(bc: &Bytecode) -> Cfg {
        // (a guess at the number of blocks, from typical code: growing these lists from empty
        // was a few reallocations per code object)
        let guess = bc.items.len() / 4 + 2;
        let mut blocks: Vec<Block> = Vec::with_capacity(guess);
        let mut cur = new_block();
        // (the instructions of the block being built, at the end of one list made once: each
        // block's own list is then allocated once at its size, not grown instruction by instruction)
        let mut flat: Vec<usize> = Vec::with_capacity(bc.items.len());
        let mut start = 0usize;
        // (label → block: a sorted list searched by halves, cheaper than hashing for a few labels)
        let mut label_block: Vec<(Label, usize)> = Vec::with_capacity(guess);
        let mut pending_labels: Vec<Label> = Vec::new();
        let mut open_try: Option<(Label, u32, bool)> = None;
        let mut cur_try: Option<(Label, u32, bool)> = None;
        let mut cur_handler: Vec<Option<(Label, u32, bool)>> = Vec::with_capacity(guess);
        let mut ends_flow = false;
        let flush = |blocks: &mut Vec<Block>,
                     cur: &mut Block,
                     flat: &[usize],
                     start: &mut usize,
                     handlers: &mut Vec<Option<(Label, u32, bool)>>,
                     h| {
            if flat.len() > *start || !cur.labels.is_empty() {
                cur.instrs = flat.get(*start..).unwrap_or(&[]).to_vec();
                *start = flat.len();
                blocks.push(std::mem::replace(cur, new_block()));
                handlers.push(h);
            }
        };
        for (i, item) in bc.items.iter().enumerate() {
            match item {
                Item::Label(l) => {
                    if flat.len() > start {
                        flush(
                            &mut blocks,
                            &mut cur,
                            &flat,
                            &mut start,
                            &mut cur_handler,
                            cur_try,
                        );
                    }
                    pending_labels.push(*l);
                }
                Item::TryBegin(tb) => {
                    open_try = Some((tb.handler, tb.depth, tb.lasti));
                }
                Item::TryEnd => {
                    open_try = None;
                }
                Item::Instr(ins) => {
                    if open_try != cur_try && flat.len() > start {
                        flush(
                            &mut blocks,
                            &mut cur,
                            &flat,
                            &mut start,
                            &mut cur_handler,
                            cur_try,
                        );
                    }
                    // (FOR_ITER heads a loop, and a block of its own, even where nothing jumps
                    // back to it: a loop whose body always leaves)
                    let starts = ends_flow || ins.op.id == ids::FOR_ITER;
                    if starts && flat.len() > start {
                        flush(
                            &mut blocks,
                            &mut cur,
                            &flat,
                            &mut start,
                            &mut cur_handler,
                            cur_try,
                        );
                    }
                    cur_try = open_try;
                    for l in pending_labels.drain(..) {
                        label_block.push((l, blocks.len()));
                        cur.labels.push(l);
                    }
                    flat.push(i);
                    // ≤3.10 POP_BLOCK ends a protected range as a 3.11+ table entry does
                    ends_flow = ins.op.is_jump()
                        || matches!(ins.op.flow, Flow::Exit | Flow::Jump)
                        || ins.op.id == ids::POP_BLOCK;
                }
            }
        }
        flush(
            &mut blocks,
            &mut cur,
            &flat,
            &mut start,
            &mut cur_handler,
            cur_try,
        );
        // (a label is placed once: the last placement wins, as the map's insert did)
        label_block.sort_by_key(|&(l, _)| l.0);
        let block_of = |l: &Label| -> Option<&usize> {
            let k = label_block.partition_point(|(x, _)| x.0 <= l.0);
            match k.checked_sub(1).map(|k| &label_block[k]) {
                Some((x, b)) if x == l => Some(b),
                _ => None,
            }
        };
        // Edges.
        let n = blocks.len();
        // (how many edges come into each block, at most: the lists of predecessors are made at
        // their size)
        let mut incoming = vec![0usize; n];
        for b in 0..n {
            let last = blocks[b].instrs.last().and_then(|&i| match &bc.items[i] {
                Item::Instr(ins) => Some(ins),
                _ => None,
            });
            let falls = last.is_none_or(|ins| matches!(ins.op.flow, Flow::Next | Flow::Branch));
            let jump = last
                .and_then(|ins| ins.target())
                .and_then(|l| block_of(&l))
                .copied();
            let fall = falls && b + 1 < n;
            let exc = cur_handler[b]
                .and_then(|(h, depth, lasti)| block_of(&h).map(|&hb| (hb, depth, lasti)));
            let mut succs = Vec::with_capacity(
                usize::from(jump.is_some()) + usize::from(fall) + usize::from(exc.is_some()),
            );
            if let Some(t) = jump {
                succs.push(Edge {
                    to: t,
                    kind: EdgeKind::Jump,
                });
            }
            if fall {
                succs.push(Edge {
                    to: b + 1,
                    kind: EdgeKind::Fall,
                });
            }
            if let Some((hb, depth, lasti)) = exc {
                succs.push(Edge {
                    to: hb,
                    kind: EdgeKind::Exception,
                });
                blocks[b].handler = Some((hb, depth, lasti));
            }
            for e in &succs {
                incoming[e.to] += 1;
            }
            blocks[b].succs = succs;
        }
        for (blk, &k) in blocks.iter_mut().zip(&incoming) {
            blk.preds.reserve_exact(k);
        }
        for b in 0..n {
            for k in 0..blocks[b].succs.len() {
                let to = blocks[b].succs[k].to;
                if !blocks[to].preds.contains(&b) {
                    blocks[to].preds.push(b);
                }
            }
        }
        Cfg { blocks }
    }

    /// Blocks reachable from the entry, in reverse post-order.
    pub fn reverse_postorder(&self) -> Vec<usize> {
        let n = self.blocks.len();
        let mut seen = vec![false; n];
        let mut order = Vec::with_capacity(n);
        if n == 0 {
            return order;
        }
        // Iterative DFS: (block, next successor to visit).
        let mut stack = vec![(0usize, 0usize)];
        seen[0] = true;
        while let Some(&mut (b, ref mut k)) = stack.last_mut() {
            if let Some(e) = self.blocks[b].succs.get(*k) {
                *k += 1;
                if !seen[e.to] {
                    seen[e.to] = true;
                    stack.push((e.to, 0));
                }
            } else {
                order.push(b);
                stack.pop();
            }
        }
        order.reverse();
        order
    }

    /// Immediate dominators (`idom[entry] == entry`; `None` for unreachable blocks), by the iterative
    /// algorithm of Cooper, Harvey and Kennedy over reverse post-order.
    pub fn dominators(&self) -> Vec<Option<usize>> {
        let rpo = self.reverse_postorder();
        idoms(self.blocks.len(), &rpo, |b| &self.blocks[b].preds)
    }

    /// Immediate post-dominators over a virtual exit joined by every block with no successor
    /// (`None`: post-dominated only by the exit, or unreachable backwards).
    pub fn post_dominators(&self) -> Vec<Option<usize>> {
        // (most code objects have no edge back: a graph walked in one pass, from the last block)
        let forward = self.blocks.iter().enumerate().all(|(b, blk)| {
            blk.succs
                .iter()
                .all(|e| e.kind == EdgeKind::Exception || e.to > b)
        });
        if forward {
            return self.forward_post_dominators();
        }
        self.any_post_dominators()
    }

    /// [`Self::post_dominators`] where every normal edge goes to a later block: the graph has no
    /// cycle, every block reaches the exit, and a block's post-dominators all come after it. So
    /// the blocks taken from the last to the first each find theirs from their successors', already
    /// known: the nearest block every successor's chain passes (a chain climbs by increasing number,
    /// so of two places on them the earlier one climbs until they meet), the exit for none.
    fn forward_post_dominators(&self) -> Vec<Option<usize>> {
        let n = self.blocks.len();
        let exit = n;
        let mut pd = vec![exit; n + 1];
        for b in (0..n).rev() {
            let mut meet: Option<usize> = None;
            for e in &self.blocks[b].succs {
                if e.kind == EdgeKind::Exception {
                    continue;
                }
                let mut t = e.to.min(exit);
                meet = Some(match meet {
                    None => t,
                    Some(mut m) => {
                        while m != t {
                            if m < t {
                                m = pd[m];
                            } else {
                                t = pd[t];
                            }
                        }
                        m
                    }
                });
            }
            pd[b] = meet.unwrap_or(exit);
        }
        pd.truncate(n);
        pd.into_iter().map(|p| (p != exit).then_some(p)).collect()
    }

    /// The blocks that [`Self::any_post_dominators`] joins to the virtual exit although they have
    /// successors: one per loop that never ends (no way from it to a block that leaves the code).
    /// Without them the walk back from the exit never reaches such a loop, and a branch with one
    /// arm going into it and the other leaving (`if not c: raise` then `while True:` with no
    /// `break`) came out post-dominated by the leaving arm, as if the loop went on there: the
    /// structurer then read `if c: <the loop>` followed by the raise. With the loop joined to the
    /// exit the arms meet nowhere, as the code says. The block the loop's last jump back (its
    /// latch, laid out last) goes to, its header, is joined, so the blocks inside the loop keep
    /// the post-dominators they have in a loop that ends: they meet at the latch, and the latch
    /// goes on to the header (joining the latch instead made an `if` ending the body, whose
    /// other arm jumps straight to the header, end at the latch: `if not c: continue`, on loops
    /// left only through an exception handler's `return`, test_queue `feed` on 3.9). Loops
    /// nested in such a loop that never end either get their own.
    fn endless_loop_exits(&self) -> Vec<bool> {
        let n = self.blocks.len();
        // (the predecessors by normal edges, in one flat list: `npreds[np_at[b]..np_at[b + 1]]`
        // lists block b's in block order, duplicates kept; no list allocated per block)
        fn normal(blk: &Block) -> impl Iterator<Item = usize> + '_ {
            blk.succs
                .iter()
                .filter(|e| e.kind != EdgeKind::Exception)
                .map(|e| e.to)
        }
        let mut np_at = vec![0usize; n + 1];
        for blk in &self.blocks {
            for t in normal(blk) {
                np_at[t + 1] += 1;
            }
        }
        for t in 0..n {
            np_at[t + 1] += np_at[t];
        }
        let mut fill = np_at.clone();
        let mut npreds = vec![0usize; np_at[n]];
        let mut reaches = vec![false; n];
        let mut todo = Vec::with_capacity(n);
        for (b, blk) in self.blocks.iter().enumerate() {
            let mut any = false;
            for t in normal(blk) {
                npreds[fill[t]] = b;
                fill[t] += 1;
                any = true;
            }
            if !any {
                reaches[b] = true;
                todo.push(b);
            }
        }
        let mut joined = vec![false; n];
        loop {
            while let Some(x) = todo.pop() {
                for &p in &npreds[np_at[x]..np_at[x + 1]] {
                    if !std::mem::replace(&mut reaches[p], true) {
                        todo.push(p);
                    }
                }
            }
            // (a block that reaches no exit is on a cycle or leads to one: a cycle has an edge
            // to a block at or before its source)
            let header = (0..n).rev().find_map(|b| {
                if reaches[b] {
                    return None;
                }
                self.blocks[b]
                    .succs
                    .iter()
                    .filter(|e| e.kind != EdgeKind::Exception && e.to <= b)
                    .map(|e| e.to)
                    .min()
            });
            match header {
                Some(h) if !reaches[h] => {
                    joined[h] = true;
                    reaches[h] = true;
                    todo.push(h);
                }
                _ => return joined,
            }
        }
    }

    /// [`Self::post_dominators`] of any graph.
    #[doc(hidden)]
    pub fn any_post_dominators(&self) -> Vec<Option<usize>> {
        let n = self.blocks.len();
        let exit = n;
        // Reverse graph: succs become preds; the exit's successors are the blocks without successors.
        // (flat lists with offsets, `rpreds[rp_at[b]..rp_at[b + 1]]`: no list allocated per block)
        let normal = |b: usize| {
            self.blocks[b]
                .succs
                .iter()
                .filter(|e| e.kind != EdgeKind::Exception)
                .map(|e| e.to)
        };
        let endless = self.endless_loop_exits();
        let mut rp_at: Vec<usize> = Vec::with_capacity(n + 2);
        let edges: usize = self.blocks.iter().map(|b| b.succs.len()).sum();
        let mut rpreds: Vec<usize> = Vec::with_capacity(edges + n);
        let mut rs_count = vec![0usize; n + 2];
        for (b, &joined) in endless.iter().enumerate() {
            rp_at.push(rpreds.len());
            let before = rpreds.len();
            rpreds.extend(normal(b));
            if rpreds.len() == before || joined {
                rpreds.push(exit);
            }
            for &t in &rpreds[before..] {
                rs_count[t + 1] += 1;
            }
        }
        rp_at.push(rpreds.len());
        rp_at.push(rpreds.len()); // the exit: no reverse preds
        for t in 0..=n {
            rs_count[t + 1] += rs_count[t];
        }
        let rs_at = rs_count.clone();
        let mut fill = rs_count;
        let mut rsuccs = vec![0usize; rpreds.len()];
        for b in 0..n {
            for &t in &rpreds[rp_at[b]..rp_at[b + 1]] {
                rsuccs[fill[t]] = b;
                fill[t] += 1;
            }
        }
        let rsuccs_of = |b: usize| &rsuccs[rs_at[b]..rs_at[b + 1]];
        // Reverse post-order of the reverse graph from the exit.
        let mut seen = vec![false; n + 1];
        let mut order = Vec::with_capacity(n + 1);
        let mut stack = Vec::with_capacity(n + 1);
        stack.push((exit, 0usize));
        seen[exit] = true;
        while let Some(&mut (b, ref mut k)) = stack.last_mut() {
            if let Some(&t) = rsuccs_of(b).get(*k) {
                *k += 1;
                if !seen[t] {
                    seen[t] = true;
                    stack.push((t, 0));
                }
            } else {
                order.push(b);
                stack.pop();
            }
        }
        order.reverse();
        let ip = idoms(n + 1, &order, |b| &rpreds[rp_at[b]..rp_at[b + 1]]);
        (0..n)
            .map(|b| ip[b].filter(|&p| p != exit && p != b))
            .collect()
    }

    /// Natural loops: for each back edge (to a block that dominates its source), the blocks that reach
    /// the source without passing the header. Loops sharing a header are merged.
    pub fn loops(&self) -> Vec<Loop> {
        // A back edge closes a cycle, and a cycle has an edge (of any kind) to a block at or before
        // its source. Where there is none, as in most functions, there is no loop to find and no
        // dominator tree to build.
        let goes_back = self
            .blocks
            .iter()
            .enumerate()
            .any(|(b, blk)| blk.succs.iter().any(|e| e.to <= b));
        if !goes_back {
            return Vec::new();
        }
        let idom = self.dominators();
        let dominates = |a: usize, mut b: usize| -> bool {
            loop {
                if a == b {
                    return true;
                }
                match idom[b] {
                    Some(p) if p != b => b = p,
                    _ => return false,
                }
            }
        };
        let mut by_header: HashMap<usize, Loop> = HashMap::new();
        for (b, blk) in self.blocks.iter().enumerate() {
            if idom[b].is_none() {
                continue;
            }
            for e in &blk.succs {
                if e.kind != EdgeKind::Exception && dominates(e.to, b) {
                    let lp = by_header.entry(e.to).or_insert_with(|| Loop {
                        header: e.to,
                        body: vec![e.to],
                        latches: Vec::new(),
                    });
                    lp.latches.push(b);
                    let mut work = vec![b];
                    while let Some(x) = work.pop() {
                        if lp.body.contains(&x) {
                            continue;
                        }
                        lp.body.push(x);
                        for &p in &self.blocks[x].preds {
                            if idom[p].is_some() && !lp.body.contains(&p) {
                                work.push(p);
                            }
                        }
                    }
                }
            }
        }
        let mut loops: Vec<Loop> = by_header.into_values().collect();
        for l in &mut loops {
            l.body.sort_unstable();
            l.latches.sort_unstable();
            l.latches.dedup();
        }
        loops.sort_by_key(|l| l.header);
        loops
    }
}

fn new_block() -> Block {
    Block {
        instrs: Vec::new(),
        labels: Vec::new(),
        succs: Vec::new(),
        preds: Vec::new(),
        handler: None,
    }
}

/// Immediate dominators of a graph given in reverse post-order from its entry (`rpo[0]`).
fn idoms<'p>(n: usize, rpo: &[usize], preds: impl Fn(usize) -> &'p [usize]) -> Vec<Option<usize>> {
    let mut idom: Vec<Option<usize>> = vec![None; n];
    let Some(&entry) = rpo.first() else {
        return idom;
    };
    let mut index = vec![usize::MAX; n];
    for (i, &b) in rpo.iter().enumerate() {
        index[b] = i;
    }
    idom[entry] = Some(entry);
    let intersect = |idom: &[Option<usize>], mut a: usize, mut b: usize| -> usize {
        while a != b {
            while index[a] > index[b] {
                a = idom[a].unwrap_or(entry);
            }
            while index[b] > index[a] {
                b = idom[b].unwrap_or(entry);
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        for &b in rpo.iter().skip(1) {
            let mut new: Option<usize> = None;
            for &p in preds(b) {
                if index[p] == usize::MAX || idom[p].is_none() {
                    continue;
                }
                new = Some(match new {
                    None => p,
                    Some(x) => intersect(&idom, p, x),
                });
            }
            if new.is_some() && idom[b] != new {
                idom[b] = new;
                changed = true;
            }
        }
    }
    idom
}

#[cfg(test)]
mod tests {
    use super::*;
    use framejit_bytecode::decode::{decode, CodeTables};
    use framejit_bytecode::PyVersion;

    /// `def f(x):\n while x:\n  if x > 3: x -= 2\n  else: x -= 1\n return x`, co_code from CPython
    /// 3.11.7. Its blocks start at offsets 0, 6 (loop header), 18 (then), 30 (else), 40 (loop test)
    /// and 44 (return).
    const WHILE_IF_311: &[u8] = &[
        151, 0, 124, 0, 114, 19, 124, 0, 100, 1, 107, 4, 0, 0, 0, 0, 114, 6, 124, 0, 100, 2, 122,
        23, 0, 0, 125, 0, 110, 5, 124, 0, 100, 3, 122, 23, 0, 0, 125, 0, 124, 0, 176, 19, 124, 0,
        83, 0,
    ];

    fn bytecode(code: &[u8]) -> Bytecode {
        let t = CodeTables {
            code,
            linetable: &[],
            exceptiontable: &[],
            first_line: 1,
        };
        decode(PyVersion::V3_11, t).expect("decodes")
    }

    #[test]
    fn blocks_dominators_and_loops() {
        let bc = bytecode(WHILE_IF_311);
        let cfg = Cfg::build(&bc);
        assert_eq!(cfg.blocks.len(), 6, "{:#?}", cfg.blocks);
        assert_eq!(
            cfg.blocks
                .iter()
                .map(|b| b.instrs.len())
                .collect::<Vec<_>>(),
            vec![3, 4, 5, 4, 2, 2]
        );
        let succ = |b: usize| {
            let mut v: Vec<(usize, EdgeKind)> =
                cfg.blocks[b].succs.iter().map(|e| (e.to, e.kind)).collect();
            v.sort_by_key(|x| x.0);
            v
        };
        assert_eq!(succ(0), vec![(1, EdgeKind::Fall), (5, EdgeKind::Jump)]);
        assert_eq!(succ(2), vec![(4, EdgeKind::Jump)]);
        assert_eq!(succ(4), vec![(1, EdgeKind::Jump), (5, EdgeKind::Fall)]);
        assert_eq!(
            cfg.dominators(),
            vec![Some(0), Some(0), Some(1), Some(1), Some(1), Some(0)]
        );
        assert_eq!(
            cfg.post_dominators(),
            vec![Some(5), Some(4), Some(4), Some(4), Some(5), None]
        );
        assert_eq!(
            cfg.loops(),
            vec![Loop {
                header: 1,
                body: vec![1, 2, 3, 4],
                latches: vec![4]
            }]
        );
    }
    /// A branch whose one arm raises (block 1) and whose other enters a loop that never ends
    /// (2 -> 3 or 4 -> 5 -> 2): the arms meet nowhere, and inside the loop the `if`'s arms still
    /// meet at its latch, which goes on to the header, the block joined to the exit.
    #[test]
    fn endless_loop_joins_the_exit_at_its_latch() {
        let edges: &[&[(usize, EdgeKind)]] = &[
            &[(1, EdgeKind::Fall), (2, EdgeKind::Jump)],
            &[],
            &[(3, EdgeKind::Fall), (4, EdgeKind::Jump)],
            &[(5, EdgeKind::Jump)],
            &[(5, EdgeKind::Fall)],
            &[(2, EdgeKind::Jump)],
        ];
        let mut cfg = Cfg {
            blocks: (0..edges.len()).map(|_| new_block()).collect(),
        };
        for (b, es) in edges.iter().enumerate() {
            for &(to, kind) in es.iter() {
                cfg.blocks[b].succs.push(Edge { to, kind });
            }
        }
        assert_eq!(
            cfg.endless_loop_exits(),
            vec![false, false, true, false, false, false]
        );
        assert_eq!(
            cfg.post_dominators(),
            vec![None, None, None, Some(5), Some(5), Some(2)]
        );
    }

    /// The one-pass walk of graphs without an edge back gives what the general one does, on
    /// random such graphs (some edges to the same block twice, exception edges anywhere, blocks
    /// that lead nowhere).
    #[test]
    fn forward_post_dominators_match_the_general_walk() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |m: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % m as u64) as usize
        };
        for _ in 0..3000 {
            let n = 1 + next(12);
            let mut cfg = Cfg {
                blocks: (0..n).map(|_| new_block()).collect(),
            };
            for b in 0..n {
                let later = n - b - 1;
                let normal = if later == 0 { 0 } else { next(3) };
                for k in 0..normal {
                    let kind = if k == 0 {
                        EdgeKind::Fall
                    } else {
                        EdgeKind::Jump
                    };
                    let to = b + 1 + next(later);
                    cfg.blocks[b].succs.push(Edge { to, kind });
                }
                if next(4) == 0 {
                    let to = next(n);
                    cfg.blocks[b].succs.push(Edge {
                        to,
                        kind: EdgeKind::Exception,
                    });
                }
            }
            assert_eq!(
                cfg.post_dominators(),
                cfg.any_post_dominators(),
                "{:?}",
                cfg.blocks
                    .iter()
                    .map(|b| b.succs.clone())
                    .collect::<Vec<_>>()
            );
        }
    }
}
