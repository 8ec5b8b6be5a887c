import CSiftPrefetch

/// What checking a candidate needs of its shape, trivially copyable: read from a buffer
/// of these, a check retains nothing (a strong reference loaded per candidate is a
/// retain and a release, atomic writes to the shape's header, on every check).
struct CheckedShape {
  /// The shared code; nil for a predicate of its own (or a free shape id). The shape in
  /// the index's table keeps it alive; unmanaged, so that a check copies it without a
  /// retain (an `if let` on an unowned reference makes a strong local).
  let unmanagedCode: Unmanaged<Code>?
  /// The step budget of one evaluation.
  let maxSteps: Int
  /// The value slot of the first array the code reads (an `IN` list), whose storage
  /// ``PredicateIndex`` prefetches ahead of the checks; -1 for none.
  let arraySlot: Int
  /// Whether the shared code is a test chain, whose candidates
  /// ``PredicateIndex/checkChain(_:_:pool:objectPool:reader:lanes:steps:matched:)`` checks
  /// test by test.
  let testChain: Bool

  init(_ shape: PredicateShape?) {
    guard let shape, let program = shape.program else {
      unmanagedCode = nil
      maxSteps = shape?.limits.maxSteps ?? 0
      arraySlot = -1
      testChain = false
      return
    }
    unmanagedCode = Unmanaged.passUnretained(program.code)
    maxSteps = shape.limits.maxSteps
    testChain = program.code.isTestChain
    arraySlot =
      program.pool.values.firstIndex {
        if case .array = $0 { return true }
        return false
      } ?? -1
  }
}

extension UnsafePointer<SiftValue> {
  /// Asks for the storage of the array this value holds to be brought into cache, without
  /// reading it (a copy of the array would retain it: an atomic write that waits for the
  /// line). A hint: the storage address is read from the value's first word, where
  /// Swift keeps an array case's payload (a test checks it); a wrong address costs a
  /// wasted prefetch, never a fault or a wrong answer.
  @inline(__always)
  func prefetchArrayStorage() {
    switch pointee {
    case .array: sift_prefetch(UnsafeRawPointer(bitPattern: arrayStorageAddress))
    // A packed list (``PackedStrings``) in a run; any other int is a wasted prefetch.
    case .int(let address): sift_prefetch(UnsafeRawPointer(bitPattern: address))
    default: return
    }
  }

  /// The first word of the value, masked to an address: an array value's storage.
  var arrayStorageAddress: UInt {
    UnsafeRawPointer(self).load(as: UInt.self) & 0x0000_FFFF_FFFF_FFF8
  }
}
