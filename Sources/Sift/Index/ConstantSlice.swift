/// One predicate's constants where the index keeps them: in its pool, right after the
/// predicate's header (``PredicateIndex``), so the exact check of a candidate reads one
/// run of memory.
///
/// A constant that is an array of plain values (the account ids of `filterCriteria IN
/// %@`, the bounds of `BETWEEN`) is *flattened*: its elements follow the constants, and
/// the constant itself records where (`.int(start | count << 32)`). No array object per
/// predicate: less memory, and no pointer to chase. Which constants are flattened is part
/// of the shape (``ShapeKey``), so it is the same for every predicate of a shape.
struct ConstantSlice {
  /// One per constant.
  let heads: UnsafeBufferPointer<SiftValue>
  /// The flattened constants' elements.
  let elements: UnsafeBufferPointer<SiftValue>
  /// Bit `k`: constant `k` is flattened.
  let flattened: UInt64

  enum Constant {
    case value(UnsafePointer<SiftValue>)
    case elements(UnsafeBufferPointer<SiftValue>)
  }

  var count: Int { heads.count }

  /// Constant `k`, in place.
  @inline(__always)
  func constant(_ k: Int) -> Constant {
    if k < 64, flattened & (1 << UInt64(k)) != 0, case .int(let packed) = heads[k] {
      let start = packed & 0xFFFF_FFFF
      let count = packed >> 32
      return .elements(UnsafeBufferPointer(rebasing: elements[start..<start + count]))
    }
    return .value(heads.baseAddress! + k)
  }

  /// Constant `k` as a value (a flattened one as a new array).
  func value(_ k: Int) -> SiftValue {
    switch constant(k) {
    case .value(let v): return v.pointee
    case .elements(let e): return .array(Array(e))
    }
  }

  /// Every constant as a value.
  var values: [SiftValue] { (0..<count).map(value) }

  /// Which of `constants` a shape flattens: arrays (among the first 64) whose elements
  /// are all plain values.
  static func flattenable(_ constants: [SiftValue]) -> UInt64 {
    var mask: UInt64 = 0
    for (k, c) in constants.prefix(64).enumerated() {
      guard case .array(let elements) = c else { continue }
      let plain = elements.allSatisfy { e in
        switch e {
        case .array, .dictionary: false
        default: true
        }
      }
      if plain { mask |= 1 << UInt64(k) }
    }
    return mask
  }

  /// `constants` laid out for the pool under `mask`: the heads, then the elements.
  static func layout(_ constants: [SiftValue], mask: UInt64) -> (heads: [SiftValue], elements: [SiftValue]) {
    var heads: [SiftValue] = []
    var elements: [SiftValue] = []
    heads.reserveCapacity(constants.count)
    for (k, c) in constants.enumerated() {
      if k < 64, mask & (1 << UInt64(k)) != 0, case .array(let a) = c {
        heads.append(.int(elements.count | a.count << 32))
        elements.append(contentsOf: a)
      } else {
        heads.append(c)
      }
    }
    return (heads, elements)
  }
}
