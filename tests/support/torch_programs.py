"""Small torch programs with graph breaks of every kind, for tests/support/torch_decompile_run.py.

Each entry of PROGRAMS is a Program: a name, a callable (function or nn.Module) and several input
sets (deterministic: every set is built under its own torch.manual_seed) chosen so that the
data-dependent branches go both ways. Programs print (captured by the runner and compared) and
call torch._dynamo.graph_break() / untraceable functions to make TorchDynamo split frames and
generate resume functions.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Any, Callable

import torch
from torch import nn


@dataclass
class Program:
    name: str
    fn: Callable
    inputs: list = field(default_factory=list)  # list of (args tuple, kwargs dict)
    reset: Callable[[], None] = lambda: None  # restores global state before each run


def _sets(make: Callable[[], tuple], seeds=(0, 1, 2, 3)) -> list:
    out = []
    for s in seeds:
        torch.manual_seed(s)
        made = make()
        out.append(made if isinstance(made, tuple) and len(made) == 2 and isinstance(made[1], dict) else (made, {}))
    return out


def _signed(n=10):
    """(positive-sum tensor, negative-sum tensor) alternate between calls: seeds flip the sign."""
    t = torch.randn(n)
    return t if torch.rand(()) > 0.5 else -t.abs()


# 1. the TorchDynamo README's toy example (data-dependent if: two resume functions)
def toy_example(a, b):
    x = a / (torch.abs(a) + 1)
    if b.sum() < 0:
        b = b * -1
    return x * b


# 2. print() between two traced parts
def print_middle(x):
    y = x.sin() + 1
    print("middle", y.shape)
    return y.cos() * 2


# 3. explicit graph break, several live locals of several kinds
def explicit_break(x, scale, tag):
    y = x * scale
    items = [y, y + 1]
    torch._dynamo.graph_break()
    return items[0] - items[1], tag + "!"


# 4. break inside a for loop
def for_loop_break(x, n):
    acc = torch.zeros_like(x)
    for i in range(n):
        acc = acc + x * i
        if acc.sum() > 3:
            acc = acc / 2
    return acc


# 5. break inside a while loop
def while_loop_break(x):
    k = 0
    while x.abs().max() > 0.5 and k < 6:
        x = x * 0.7
        k += 1
        torch._dynamo.graph_break()
    return x, k


# 6. break inside try/except
def try_except_break(x):
    try:
        y = x + 1
        torch._dynamo.graph_break()
        if y.sum() > 0:
            raise ValueError("positive")
        z = y * 2
    except ValueError:
        z = y * -3
    return z


# 7. try/finally around a break
def try_finally_break(x):
    out = []
    try:
        out.append(x * 2)
        print("in try")
    finally:
        out.append(x - 1)
    return torch.stack(out)


# 8. break inside with torch.no_grad()
def no_grad_break(x, w):
    with torch.no_grad():
        y = x @ w
        torch._dynamo.graph_break()
        y = y.relu()
    return y + x.sum()


class Tracker:
    """A user context manager (not traceable: its state lives in a plain list)."""

    log: list = []

    def __enter__(self):
        Tracker.log.append("enter")
        return self

    def __exit__(self, *exc):
        Tracker.log.append("exit")
        return False


def _reset_tracker():
    Tracker.log.clear()


# 9. break inside a user context manager
def user_cm_break(x):
    with Tracker():
        y = x.exp()
        print("inside")
        y = y - 1
    return y, len(Tracker.log)


# 10. closure reading a cell, break in the inner function
def closure_break(x, k):
    def inner(t):
        u = t * k
        torch._dynamo.graph_break()
        return u + k

    return inner(x) + inner(x * 2)


# 11. nested calls, the break two levels down
def _level2(t):
    if t.mean() > 0:
        return t + 10
    return t - 10


def _level1(t):
    return _level2(t * 2) * 3


def nested_calls(x):
    a = x.tanh()
    b = _level1(a)
    return a + b


# 12. a generator consumed inside, then a break
def _gen(x, n):
    for i in range(n):
        yield x * (i + 1)


def generator_consumed(x):
    parts = list(_gen(x, 3))
    total = sum(parts)
    if total.sum() > 0:
        total = total + 1
    return total


# 13. keyword arguments, keyword-only with defaults
def kwargs_program(x, *, alpha=1.0, beta=None, mode="add"):
    y = x * alpha
    if beta is not None:
        y = y + beta
    print("mode", mode)
    if mode == "add":
        return y + 1
    return y * y


GLOBAL_SCALE = torch.tensor(1.5)
GLOBAL_LOG: list = []


def _reset_globals():
    GLOBAL_LOG.clear()


# 14. globals read and mutated around a break
def globals_program(x):
    y = x * GLOBAL_SCALE
    GLOBAL_LOG.append(float(y.sum()))
    torch._dynamo.graph_break()
    return y + len(GLOBAL_LOG)


# 15. .item() (a data-dependent scalar) and a branch on it
def item_branch(x):
    v = x.max().item()
    if v > 1.0:
        return x / v
    return x * v


# 16. a small MLP with a data-dependent branch in forward
class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 4)

    def forward(self, x):
        h = torch.relu(self.fc1(x))
        if h.sum() > 5:
            h = h * 0.5
        return self.fc2(h)


# 17. a conv module with a print in forward
class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.bn = nn.BatchNorm2d(4)

    def forward(self, x):
        y = self.conv(x)
        print("conv out", tuple(y.shape))
        y = self.bn(y)
        return torch.flatten(torch.relu(y), 1).mean(1)


# 18. a module whose forward loops over submodules with a break per layer
class Stack(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(6, 6) for _ in range(3)])

    def forward(self, x):
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if x.norm() > 2 + i:
                x = x / x.norm()
        return x


# 19. nested loops, break in the inner one, early return
def nested_loops(x):
    for i in range(3):
        for j in range(2):
            x = x + i * j
            if x.sum() > 20:
                return x, i, j
    return x, -1, -1


# 20. exception raised from a graph-broken callee, caught by the caller
def _check(t):
    torch._dynamo.graph_break()
    if t.min() < -1:
        raise RuntimeError("too small")
    return t


def caller_catches(x):
    try:
        y = _check(x * 2)
    except RuntimeError as e:
        y = torch.full_like(x, len(str(e)))
    return y


# 21. comprehension and dict results around a break
def comprehension_dict(xs):
    ys = [t * 2 for t in xs]
    print("n", len(ys))
    return {f"k{i}": t.sum() for i, t in enumerate(ys)}


# 22. a lambda and functools.partial called after a break
def lambda_partial(x):
    import functools

    f = lambda t: t.clamp(min=0)  # noqa: E731
    g = functools.partial(torch.add, alpha=2)
    torch._dynamo.graph_break()
    return g(f(x), x)


# 23. an untraceable builtin in the middle (a dynamo-disabled function)
@torch._dynamo.disable
def _untraceable(t):
    return t.numpy().sum()


def disabled_call(x):
    y = x + 2
    s = _untraceable(y)
    return y * float(s)


# 24. augmented assignment on an attribute and a subscript across a break
class Holder:
    def __init__(self):
        self.v = 0


def attr_subscript(x):
    h = Holder()
    d = {"a": x}
    h.v += 1
    d["a"] = d["a"] + 1
    torch._dynamo.graph_break()
    h.v += 2
    d["a"] *= 3
    return d["a"], h.v


# 25. contextlib.suppress and a conditional expression
def suppress_program(x):
    with contextlib.suppress(KeyError):
        y = x * 2
        print("suppress")
        {}["missing"]
    z = y if y.sum() > 0 else -y
    return z


# 26-28. the loop / try / user context manager around a call whose frame breaks: Dynamo skips
# frames that break inside a loop, a try or an untraceable context manager (programs 4, 6, 7, 9,
# 18, 25 yield no transformed code), but still converts the callee's frame.
def _halve_if_big(t, i):
    if t.sum() > 2:
        return t / 2
    return t + i


def loop_calls_breaking(x):
    for i in range(3):
        x = _halve_if_big(x * 1.5, i)
    return x


def try_calls_breaking(x):
    try:
        y = _halve_if_big(x, 1)
        z = y.reshape(2, -1)
    except RuntimeError:
        z = y
    return z


def cm_calls_breaking(x):
    with Tracker():
        y = _halve_if_big(x.exp(), 2)
    return y, list(Tracker.log)


def _mlp():
    torch.manual_seed(0)
    return MLP().eval()


def _conv():
    torch.manual_seed(0)
    return ConvNet().eval()


def _stack():
    torch.manual_seed(0)
    return Stack()


PROGRAMS = [
    Program("toy_example", toy_example, _sets(lambda: (torch.randn(10), torch.randn(10)), seeds=range(6))),
    Program("print_middle", print_middle, _sets(lambda: (torch.randn(4),))),
    Program("explicit_break", explicit_break, _sets(lambda: (torch.randn(3), 2.5, "t"))),
    Program("for_loop_break", for_loop_break, _sets(lambda: (torch.randn(5), 4))),
    Program("while_loop_break", while_loop_break, _sets(lambda: (torch.randn(5) * 2,))),
    Program("try_except_break", try_except_break, _sets(lambda: (_signed(),))),
    Program("try_finally_break", try_finally_break, _sets(lambda: (torch.randn(3),))),
    Program("no_grad_break", no_grad_break, _sets(lambda: (torch.randn(4, 3), torch.randn(3, 3)))),
    Program("user_cm_break", user_cm_break, _sets(lambda: (torch.randn(3),)), reset=_reset_tracker),
    Program("closure_break", closure_break, _sets(lambda: (torch.randn(3), 3))),
    Program("nested_calls", nested_calls, _sets(lambda: (_signed(),))),
    Program("generator_consumed", generator_consumed, _sets(lambda: (_signed(),))),
    Program(
        "kwargs_program",
        kwargs_program,
        [
            ((torch.ones(3),), {}),
            ((torch.ones(3),), {"alpha": 2.0, "beta": torch.ones(3)}),
            ((torch.ones(3),), {"mode": "mul"}),
            ((torch.ones(3),), {"alpha": -1.0, "mode": "mul", "beta": torch.zeros(3)}),
        ],
    ),
    Program("globals_program", globals_program, _sets(lambda: (torch.randn(3),)), reset=_reset_globals),
    Program("item_branch", item_branch, _sets(lambda: (torch.randn(6),))),
    Program("mlp", _mlp(), _sets(lambda: (torch.randn(2, 8),))),
    Program("conv", _conv(), _sets(lambda: (torch.randn(2, 3, 6, 6),), seeds=(0, 1))),
    Program("module_stack", _stack(), _sets(lambda: (torch.randn(2, 6) * 3,))),
    Program("nested_loops", nested_loops, _sets(lambda: (torch.randn(4) * 4,))),
    Program("caller_catches", caller_catches, _sets(lambda: (torch.randn(3) * 2,))),
    Program("comprehension_dict", comprehension_dict, _sets(lambda: ([torch.randn(2), torch.randn(3)],))),
    Program("lambda_partial", lambda_partial, _sets(lambda: (torch.randn(4),))),
    Program("disabled_call", disabled_call, _sets(lambda: (torch.randn(3),))),
    Program("attr_subscript", attr_subscript, _sets(lambda: (torch.randn(3),))),
    Program("suppress_program", suppress_program, _sets(lambda: (_signed(),))),
    Program("loop_calls_breaking", loop_calls_breaking, _sets(lambda: (torch.randn(4),))),
    Program("try_calls_breaking", try_calls_breaking, _sets(lambda: (torch.randn(4) * 2,))),
    Program("cm_calls_breaking", cm_calls_breaking, _sets(lambda: (torch.randn(3),)), reset=_reset_tracker),
]
