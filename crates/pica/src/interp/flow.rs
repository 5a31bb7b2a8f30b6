//! The control-flow stacks of 3dbrew "GPU/Shader Instruction Set" "Control Flow": a 4-deep CALL stack,
//! an 8-deep IF stack and a 4-deep LOOP stack, each checked against its own copy of the
//! incremented PC after every instruction, overflowing as rings.

/// A fixed-depth stack whose push on a full stack drops the oldest entry ("a stack overflow
/// discards the oldest element").
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ring<T: Copy + Default, const N: usize> {
    items: [T; N],
    len: usize,
}

impl<T: Copy + Default, const N: usize> Default for Ring<T, N> {
    fn default() -> Self {
        Ring { items: [T::default(); N], len: 0 }
    }
}

impl<T: Copy + Default, const N: usize> Ring<T, N> {
    pub fn push(&mut self, v: T) {
        if self.len == N {
            self.items.rotate_left(1);
            self.items[N - 1] = v;
        } else {
            self.items[self.len] = v;
            self.len += 1;
        }
    }

    #[inline(always)]
    pub fn top(&self) -> Option<&T> {
        if self.len == 0 {
            None
        } else {
            Some(&self.items[self.len - 1])
        }
    }

    #[inline(always)]
    pub fn top_mut(&mut self) -> Option<&mut T> {
        if self.len == 0 {
            None
        } else {
            Some(&mut self.items[self.len - 1])
        }
    }

    pub fn pop(&mut self) -> Option<T> {
        if self.len == 0 {
            None
        } else {
            self.len -= 1;
            Some(self.items[self.len])
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }
}

/// A CALL entry: when the PC reaches `trigger` (DST+NUM), it returns to `ret`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct CallEntry {
    pub trigger: u32,
    pub ret: u32,
}

/// An IF entry: when the PC reaches `trigger` (DST, the end of the taken block), it goes to
/// `target` (DST+NUM, past the else block).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct IfEntry {
    pub trigger: u32,
    pub target: u32,
}

/// A LOOP entry: when the PC reaches `trigger` (DST+1), its counter `al` grows by `step` and the
/// body runs again from `start` while `remaining` iterations are left.
///
/// Each loop keeps its own counter: when an inner loop ends (or breaks), aL is the enclosing
/// loop's counter again, so after a nested pair aL = y + (x+1)*z of the outer loop
/// (specs/pica200-facts.md "Loops and conditions").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct LoopEntry {
    pub trigger: u32,
    pub start: u32,
    pub remaining: u32,
    pub step: i32,
    pub al: i32,
}

/// The three stacks.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Stacks {
    pub call: Ring<CallEntry, 4>,
    pub ifs: Ring<IfEntry, 8>,
    pub loops: Ring<LoopEntry, 4>,
}

impl Stacks {
    pub fn is_empty(&self) -> bool {
        self.call.len() == 0 && self.ifs.len() == 0 && self.loops.len() == 0
    }

    pub fn clear(&mut self) {
        self.call.clear();
        self.ifs.clear();
        self.loops.clear();
    }

    /// After a loop entry is popped: aL is the enclosing loop's counter, if there is one; else it
    /// keeps the value of the loop that ended ("aL stays readable after the loop ends").
    pub fn restore_al(&self, al: &mut i32) {
        if let Some(outer) = self.loops.top() {
            *al = outer.al;
        }
    }

    /// Checks the stacks against `next` (the incremented PC) and picks the next PC.
    ///
    /// Every stack is checked, whichever wins. The IF and LOOP stacks pop at most one entry; the
    /// CALL stack pops while its top matches its (updated) copy, and misses the update of its
    /// fourth pop in a row. Priority: LOOP, IF, CALL, then `jump` (JMP and the other taken
    /// branches), which only applies when no stack popped or looped, then `next`.
    #[inline]
    pub fn next_pc(&mut self, next: u32, jump: Option<u32>, al: &mut i32) -> u32 {
        let mut loop_pc = None;
        if let Some(top) = self.loops.top_mut() {
            if top.trigger == next {
                top.al = top.al.wrapping_add(top.step);
                *al = top.al;
                if top.remaining == 0 {
                    self.loops.pop();
                    self.restore_al(al);
                    loop_pc = Some(next);
                } else {
                    top.remaining -= 1;
                    loop_pc = Some(top.start);
                }
            }
        }
        let mut if_pc = None;
        if let Some(top) = self.ifs.top() {
            if top.trigger == next {
                if_pc = Some(top.target);
                self.ifs.pop();
            }
        }
        let mut call_pc = None;
        let mut copy = next;
        let mut pops = 0;
        while let Some(top) = self.call.top() {
            if top.trigger != copy {
                break;
            }
            let entry = *top;
            self.call.pop();
            pops += 1;
            // Hardware quirk: the fourth pop in a row does not update the copy.
            if pops != 4 {
                copy = entry.ret;
            }
            call_pc = Some(copy);
        }
        loop_pc.or(if_pc).or(call_pc).or(jump).unwrap_or(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ring_drops_the_oldest() {
        let mut r: Ring<u32, 4> = Ring::default();
        for i in 0..6 {
            r.push(i);
        }
        assert_eq!(r.len(), 4);
        assert_eq!([r.pop(), r.pop(), r.pop(), r.pop(), r.pop()], [Some(5), Some(4), Some(3), Some(2), None]);
    }

    #[test]
    fn call_fourth_pop_is_missed() {
        let mut s = Stacks::default();
        // Four nested calls all ending at 10, returning to 20, 30, 40, 50 (innermost last).
        s.call.push(CallEntry { trigger: 10, ret: 50 });
        s.call.push(CallEntry { trigger: 10, ret: 10 });
        s.call.push(CallEntry { trigger: 10, ret: 10 });
        s.call.push(CallEntry { trigger: 10, ret: 10 });
        let mut al = 0;
        // Pops 1-3 return to 10, which matches again; the 4th pop's return (50) is missed.
        assert_eq!(s.next_pc(10, None, &mut al), 10);
        assert!(s.is_empty());
    }
}
