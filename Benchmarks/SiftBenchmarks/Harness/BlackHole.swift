/// Consumes a value so the optimizer cannot delete the work that produced it.
/// (`@inline(never)` alone is not enough: the call is still removed when it has no effects.)
@_optimize(none) @inline(never) func blackHole<T>(_ value: T) {}
