import Foundation

/// Foundation values (`[String: Any]`, `NSDictionary`, `NSNumber`, `NSString`, `NSArray`,
/// `NSNull`, `Date`, `Set`, Swift numbers and strings) read as Sift values. Each value's
/// dynamic type is looked up once, exact types first (what `JSONSerialization` and Swift
/// literals produce), so an `NSNumber` is read as a number without first being bridged to
/// `Bool` and an `Int` without a cast chain; Objective-C classes and other collections
/// come after. A value of a type Sift cannot read is reported with its type and where it
/// was found.
enum FoundationValue {
  /// A value that could not be read: its type, and the path to it from the value read
  /// (innermost key or index last).
  struct Unreadable: Error {
    var typeName: String
    var path: [String]
    /// The value was not unreadable: reading it would have cost more than the budget left.
    var exhaustedBudget = false

    /// The step budget ran out while converting.
    static let budget = Unreadable(typeName: "", path: [], exhaustedBudget: true)

    /// The evaluation error for it, `at` naming the place of the value that was read.
    func error(at place: String?) -> EvaluationError {
      if exhaustedBudget { return Semantics.stepBudgetExceeded() }
      let location = EvaluationError.excerpt(([place].compactMap { $0 } + path.reversed()).joined())
      let subject = location.isEmpty ? "the value" : "the value at \(location)"
      return EvaluationError(.typeMismatch, "\(subject) is a \(typeName), which Sift cannot read")
    }
  }

  /// Charges `count` elements converted (``Cost/foundationElement`` steps each) before
  /// converting them.
  @inline(__always)
  static func charge(_ count: Int, _ steps: inout Int) throws(Unreadable) {
    let cost = Cost.times(count, Cost.foundationElement)
    guard cost <= steps else { throw .budget }
    steps -= cost
  }

  /// `value` as a Sift value, each collection charged to `steps` before it is converted.
  static func read(_ value: Any, steps: inout Int) throws(Unreadable) -> SiftValue {
    switch ObjectIdentifier(type(of: value)) {
    case ObjectIdentifier(String.self): return .string(ExistentialPayload.load(value, as: String.self))
    case ObjectIdentifier(Int.self): return .int(ExistentialPayload.load(value, as: Int.self))
    case ObjectIdentifier(Double.self): return .double(ExistentialPayload.load(value, as: Double.self))
    case ObjectIdentifier(Bool.self): return .bool(ExistentialPayload.load(value, as: Bool.self))
    case ObjectIdentifier([String: Any].self):
      return try dictionary(ExistentialPayload.load(value, as: [String: Any].self), steps: &steps)
    case ObjectIdentifier([Any].self): return try array(ExistentialPayload.load(value, as: [Any].self), steps: &steps)
    case ObjectIdentifier([String].self):
      let strings = ExistentialPayload.load(value, as: [String].self)
      try charge(strings.count, &steps)
      return .array(strings.map(SiftValue.string))
    case ObjectIdentifier(SiftValue.self): return value as! SiftValue
    case ObjectIdentifier(Date.self): return (value as! Date).siftValue
    default: return try readOther(value, steps: &steps)
    }
  }

  /// Everything but the commonest exact types.
  @inline(never)
  private static func readOther(_ value: Any, steps: inout Int) throws(Unreadable) -> SiftValue {
    let type = type(of: value)
    // Classes by their hierarchy: a walk of superclass pointers, not a bridging cast.
    switch type {
    case is NSNumber.Type: return number(value as! NSNumber)
    case is NSString.Type: return .string((value as! NSString) as String)
    case is NSNull.Type: return .null
    case is NSDate.Type: return (value as! NSDate as Date).siftValue
    case is NSArray.Type:
      let a = value as! NSArray
      try charge(a.count, &steps)
      return try array(a.map { $0 }, steps: &steps, charged: true)
    case is NSDictionary.Type: return try dictionary(value as! NSDictionary, steps: &steps)
    case is NSSet.Type:
      let set = value as! NSSet
      try charge(set.count, &steps)
      return try array(set.map { $0 }, steps: &steps, charged: true)
    default: break
    }
    switch ObjectIdentifier(type) {
    // An optional inside `Any` (an element of `[String: Any?]` seen as `[String: Any]`).
    case ObjectIdentifier(Optional<Any>.self):
      // Read through a mirror: `value as! Any?` would be a cast the compiler calls always
      // successful, and `as Any?` wraps instead of unwrapping.
      guard let wrapped = Mirror(reflecting: value).children.first?.value else { return .null }
      return try read(wrapped, steps: &steps)
    case ObjectIdentifier(AnyHashable.self): return try read((value as! AnyHashable).base, steps: &steps)
    default: break
    }
    // Swift values that say what they are to Sift: numbers of other widths, Float,
    // typed arrays and sets, optionals, RawRepresentable enums that opt in, SiftTyped.
    if let field = value as? any SiftFieldValue {
      // A typed collection converts all of its elements at once: charged first.
      if let c = value as? any Collection { try charge(c.count, &steps) }
      return field.siftValue
    }
    if let d = value as? [String: Any] { return try dictionary(d, steps: &steps) }
    if let a = value as? [Any] { return try array(a, steps: &steps) }
    if let s = value as? Set<AnyHashable> {
      try charge(s.count, &steps)
      return try array(s.map(\.base), steps: &steps, charged: true)
    }
    throw Unreadable(typeName: String(describing: type), path: [])
  }

  static func number(_ n: NSNumber) -> SiftValue {
    switch UInt8(bitPattern: n.objCType.pointee) {
    case UInt8(ascii: "c"), UInt8(ascii: "B"): return .bool(n.boolValue)
    case UInt8(ascii: "f"), UInt8(ascii: "d"): return .double(n.doubleValue)
    // intValue would wrap an unsigned value above Int.max to a negative number.
    case UInt8(ascii: "Q"), UInt8(ascii: "L"):
      return n.uint64Value > UInt64(Int.max) ? .double(n.doubleValue) : .int(n.intValue)
    default: return .int(n.intValue)
    }
  }

  static func array(_ elements: [Any], steps: inout Int, charged: Bool = false) throws(Unreadable) -> SiftValue {
    if !charged { try charge(elements.count, &steps) }
    var out: [SiftValue] = []
    out.reserveCapacity(elements.count)
    for (i, e) in elements.enumerated() {
      do throws(Unreadable) {
        out.append(try read(e, steps: &steps))
      } catch {
        var error = error
        error.path.append("[\(i)]")
        throw error
      }
    }
    return .array(out)
  }

  static func dictionary(_ d: [String: Any], steps: inout Int) throws(Unreadable) -> SiftValue {
    try charge(d.count, &steps)
    var out: [String: SiftValue] = [:]
    out.reserveCapacity(d.count)
    for (k, e) in d {
      do throws(Unreadable) {
        out[k] = try read(e, steps: &steps)
      } catch {
        var error = error
        error.path.append(".\(k)")
        throw error
      }
    }
    return .dictionary(out)
  }

  static func dictionary(_ d: NSDictionary, steps: inout Int) throws(Unreadable) -> SiftValue {
    try charge(d.count, &steps)
    var out: [String: SiftValue] = [:]
    for (key, e) in d {
      guard let k = key as? String else {
        throw Unreadable(typeName: "dictionary key of type \(Swift.type(of: key))", path: [])
      }
      do throws(Unreadable) {
        out[k] = try read(e, steps: &steps)
      } catch {
        var error = error
        error.path.append(".\(k)")
        throw error
      }
    }
    return .dictionary(out)
  }

  /// The value at `key` of a Foundation dictionary, matching keys byte for byte as Sift's
  /// own dictionaries do (Swift's lookup treats canonically equivalent keys as one).
  @inline(__always)
  static func lookup(_ d: [String: Any], _ key: String) -> Any? {
    guard let i = d.index(forKey: key) else { return nil }
    let entry = d[i]
    return sameBytes(entry.key, key) ? entry.value : nil
  }

  /// ``read(_:steps:)`` without a budget, for arguments and values the caller converts
  /// once, outside an evaluation.
  static func read(_ value: Any) throws(Unreadable) -> SiftValue {
    var unlimited = Int.max
    return try read(value, steps: &unlimited)
  }
}
