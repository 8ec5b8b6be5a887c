/// Foundation's string and number methods that `FUNCTION(receiver, 'name', args…)` and a
/// custom-selector comparison (`SELF isKindOfClass: 'NSString'`) reach when no function of
/// that name is registered (Documentation/Semantics.md, "FUNCTION and custom selectors").
/// Each follows the NSString or NSNumber method it is named after; a nil receiver answers
/// nil, as a message to nil does.
package enum BuiltinSelectors {
  /// Whether `name` is a built-in (the compiler does not need to know; errors do).
  static func isBuiltin(_ name: String) -> Bool { names.contains(name) }

  static let names: Set<String> = [
    "uppercaseString", "lowercaseString", "capitalizedString", "length", "intValue", "integerValue",
    "doubleValue", "floatValue", "boolValue", "stringValue", "description", "count", "hasPrefix:", "hasSuffix:",
    "stringByAppendingString:", "isKindOfClass:", "isEqual:", "isEqualToString:", "containsObject:",
  ]

  /// The result of the built-in `name` on `arguments` (the receiver first), its work
  /// charged to `steps` before it is done (``Cost``); nil when there is no built-in of that
  /// name and arity.
  package static func call(_ name: String, _ arguments: [SiftValue], steps: inout Int) throws(EvaluationError)
    -> SiftValue?
  {
    guard let receiver = arguments.first else { return nil }
    let rest = arguments.dropFirst()
    if rest.isEmpty {
      return try unary(name, receiver, steps: &steps)
    }
    guard rest.count == 1, let argument = rest.first else { return nil }
    return try binary(name, receiver, argument, steps: &steps)
  }

  /// ``call(_:_:steps:)`` without a budget, for callers that bound the values themselves.
  package static func call(_ name: String, _ arguments: [SiftValue]) throws(EvaluationError) -> SiftValue? {
    var unlimited = Int.max
    return try call(name, arguments, steps: &unlimited)
  }

  private static func unary(_ name: String, _ x: SiftValue, steps: inout Int) throws(EvaluationError) -> SiftValue? {
    func unsupported() -> EvaluationError {
      EvaluationError(.typeMismatch, "FUNCTION '\(name)' is not a method of a \(x.kindName)")
    }
    switch name {
    case "uppercaseString", "lowercaseString", "capitalizedString", "length":
      if case .null = x { return .null }
      guard case .string(let s) = x else { throw unsupported() }
      switch name {
      case "length": try Semantics.charge(Cost.string(s.utf8.count, folding: false), &steps)
      case "capitalizedString": try Semantics.charge(Cost.capitalizing(s), &steps)
      default: try Semantics.charge(Cost.caseMapping(s), &steps)
      }
      switch name {
      case "uppercaseString": return .string(s.uppercased())
      case "lowercaseString": return .string(s.lowercased())
      case "capitalizedString": return .string(capitalized(s))
      default: return .int(s.utf16.count)
      }
    case "intValue", "integerValue", "doubleValue", "floatValue", "boolValue":
      switch x {
      case .null: return .null
      case .string(let s):
        // Read byte by byte (whitespace, a sign, digits): folded bytes.
        try Semantics.charge(Cost.string(s.utf8.count, folding: true), &steps)
        return stringNumber(name, s)
      case .int, .double, .bool: return numberConversion(name, x)
      default: throw unsupported()
      }
    case "stringValue":
      switch x {
      case .null: return .null
      case .string: return x
      case .int, .double, .bool: return .string(description(x))
      default: throw unsupported()
      }
    case "description":
      if case .null = x { return .null }
      // Charged for what it will write, before writing it: nested collections indent
      // every line by their depth, so the text can be far longer than the value.
      try Semantics.charge(try descriptionCost(x, stepsLeft: steps), &steps)
      return .string(description(x))
    case "count":
      switch x {
      case .null: return .null
      case .array(let a): return .int(a.count)
      case .dictionary(let d): return .int(d.count)
      default: throw unsupported()
      }
    default: return nil
    }
  }

  private static func binary(_ name: String, _ x: SiftValue, _ y: SiftValue, steps: inout Int)
    throws(EvaluationError) -> SiftValue?
  {
    switch name {
    case "hasPrefix:", "hasSuffix:", "stringByAppendingString:", "isEqualToString:":
      if case .null = x { return .null }
      guard case .string(let s) = x, case .string(let t) = y else {
        let bad = { if case .string = x { return y } else { return x } }()
        throw EvaluationError(.typeMismatch, "FUNCTION '\(name)' needs strings, not a \(bad.kindName)")
      }
      // A string built, or two compared.
      try Semantics.charge(
        Cost.string(s.utf8.count + t.utf8.count, folding: name == "stringByAppendingString:"), &steps)
      switch name {
      // NSString's prefix and suffix tests are literal: byte for byte.
      case "hasPrefix:": return .bool(s.utf8.starts(with: t.utf8))
      case "hasSuffix:": return .bool(s.utf8.reversed().starts(with: t.utf8.reversed()))
      case "isEqualToString:": return .bool(s.utf8.elementsEqual(t.utf8))
      default: return .string(s + t)
      }
    case "isKindOfClass:":
      guard case .string(let className) = y else {
        throw EvaluationError(.typeMismatch, "isKindOfClass: needs a class name, not a \(y.kindName)")
      }
      return .bool(isKind(x, of: className))
    case "isEqual:":
      return .bool(try Semantics.equal(x, y, [], steps: &steps))
    case "containsObject:":
      switch x {
      case .null: return .null
      case .array(let elements):
        // NSArray's rule: an element equal to the argument, nil included (unlike IN,
        // where nil is a member of nothing). A step per element, then each comparison.
        try Semantics.charge(elements.count, &steps)
        for e in elements where try Semantics.equal(e, y, [], steps: &steps) { return .bool(true) }
        return .bool(false)
      default:
        throw EvaluationError(.typeMismatch, "containsObject: needs a collection, not a \(x.kindName)")
      }
    default: return nil
    }
  }

  /// The Foundation classes a value is a kind of. Sift has one collection kind, so an
  /// array is an NSArray and an NSSet; nil is NSNull; everything is an NSObject.
  static func isKind(_ v: SiftValue, of className: String) -> Bool {
    switch className {
    case "NSObject": return true
    case "NSString", "NSMutableString": if case .string = v { return true }
    case "NSNumber", "NSValue":
      switch v {
      case .int, .double, .bool: return true
      default: break
      }
    case "NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet":
      if case .array = v { return true }
    case "NSDictionary", "NSMutableDictionary": if case .dictionary = v { return true }
    case "NSDate": if case .date = v { return true }
    case "NSNull": if case .null = v { return true }
    default: break
    }
    return false
  }

  /// NSString's `capitalizedString`: each letter that follows a character that is not a
  /// letter (or starts the string) in title case, every other letter in lower case
  /// (`"don't stop 1st"` is `"Don'T Stop 1St"`, as on Apple platforms). ASCII text is
  /// mapped byte by byte (its only letters are A–Z and a–z, and each byte is a character
  /// but CR LF, which holds no letter); other text character by character.
  static func capitalized(_ s: String) -> String {
    if let ascii = withUTF8Bytes(s, { ASCIIBytes.isASCII($0) ? capitalizedASCII($0) : nil }) { return ascii }
    var out = ""
    var afterLetter = false
    for c in s {
      if c.isLetter {
        if afterLetter {
          out += c.lowercased()
        } else {
          var scalars = c.unicodeScalars.makeIterator()
          if let first = scalars.next() { out += first.properties.titlecaseMapping }
          while let next = scalars.next() { out.unicodeScalars.append(next) }
        }
        afterLetter = true
      } else {
        out.append(c)
        afterLetter = false
      }
    }
    return out
  }

  private static func capitalizedASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    String(unsafeUninitializedCapacity: bytes.count) { out in
      var afterLetter = false
      for (i, b) in bytes.enumerated() {
        let lower = b | 0x20
        let isLetter = lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")
        out[i] = isLetter ? (afterLetter ? lower : lower & ~0x20) : b
        afterLetter = isLetter
      }
      return bytes.count
    }
  }

  /// NSString's `intValue`, `integerValue`, `doubleValue`, `floatValue` and `boolValue`:
  /// the number at the start of the string after whitespace, 0 when there is none, and
  /// the extreme value on overflow.
  static func stringNumber(_ name: String, _ s: String) -> SiftValue {
    let b = Array(s.utf8)
    var i = 0
    while i < b.count, b[i] == 0x20 || (b[i] >= 0x09 && b[i] <= 0x0D) { i += 1 }
    var negative = false
    if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
      negative = b[i] == UInt8(ascii: "-")
      i += 1
    }
    func isDigit(_ j: Int) -> Bool { j < b.count && b[j] >= UInt8(ascii: "0") && b[j] <= UInt8(ascii: "9") }
    switch name {
    case "boolValue":
      // Y, y, T, t or a digit 1–9, after whitespace, a sign and leading zeros: the letters
      // too (`+Y`, `-0y`, `00t` are true), as Foundation skips "an optional -/+ sign
      // followed by zeroes" before it looks at the next character, whatever it is.
      var j = i
      while j < b.count, b[j] == UInt8(ascii: "0") { j += 1 }
      guard j < b.count else { return .bool(false) }
      switch b[j] {
      case UInt8(ascii: "Y"), UInt8(ascii: "y"), UInt8(ascii: "T"), UInt8(ascii: "t"),
        UInt8(ascii: "1")...UInt8(ascii: "9"):
        return .bool(true)
      default:
        return .bool(false)
      }
    case "intValue", "integerValue":
      // The magnitude, saturated at the type's: INT_MAX / INT_MIN (or the Int ones) on overflow.
      let limit: UInt64 =
        name == "intValue" ? (negative ? 1 << 31 : (1 << 31) - 1) : (negative ? 1 << 63 : (1 << 63) - 1)
      var magnitude: UInt64 = 0
      while isDigit(i) {
        let digit = UInt64(b[i] - UInt8(ascii: "0"))
        if magnitude <= (limit - digit) / 10 { magnitude = magnitude * 10 + digit } else { magnitude = limit }
        i += 1
      }
      return .int(negative ? Int(truncatingIfNeeded: 0 &- magnitude) : Int(magnitude))
    default:
      // The longest decimal prefix: digits, a fraction, an exponent.
      let start = i
      while isDigit(i) { i += 1 }
      var digits = i - start
      if i < b.count, b[i] == UInt8(ascii: ".") {
        i += 1
        let f = i
        while isDigit(i) { i += 1 }
        digits += i - f
      }
      guard digits > 0 else { return .double(0) }
      if i < b.count, b[i] | 0x20 == UInt8(ascii: "e") {
        var j = i + 1
        if j < b.count, b[j] == UInt8(ascii: "+") || b[j] == UInt8(ascii: "-") { j += 1 }
        if isDigit(j) {
          while isDigit(j) { j += 1 }
          i = j
        }
      }
      let text = String(decoding: b[start..<i], as: UTF8.self)
      let magnitude = Double(text) ?? 0
      let d = negative ? -magnitude : magnitude
      return .double(name == "floatValue" ? Double(Float(d)) : d)
    }
  }

  /// NSNumber's conversions: toward zero for the integer ones (clamped to the type), as a
  /// double or float, and `boolValue` true for anything but zero.
  static func numberConversion(_ name: String, _ x: SiftValue) -> SiftValue {
    let d = Semantics.number(x)!
    switch name {
    case "boolValue": return .bool(d != 0)
    case "doubleValue": return .double(d)
    case "floatValue": return .double(Double(Float(d)))
    default:
      let bounds: ClosedRange<Double> =
        name == "intValue" ? Double(Int32.min)...Double(Int32.max) : -9.223372036854775808e18...9.223372036854775807e18
      if case .int(let i) = x { return .int(name == "intValue" ? Int(Int32(truncatingIfNeeded: i)) : i) }
      if d.isNaN { return .int(0) }
      let t = min(max(d.rounded(.towardZero), bounds.lowerBound), bounds.upperBound)
      return .int(t >= 9.223372036854775807e18 ? Int.max : Int(t))
    }
  }

  /// A value as NSNumber's `stringValue` and the `description` of Foundation objects
  /// write it: integers and integral doubles without a fraction, other doubles in their
  /// shortest form, booleans as 1 and 0, collections in the property-list style of
  /// NSArray and NSDictionary (each nesting level indented four more spaces).
  static func description(_ v: SiftValue) -> String {
    var out = DescriptionText()
    write(v, depth: 0, quoted: false, into: &out)
    return out.text
  }

  /// The steps writing ``description(_:)`` of `v` costs: a step per element or entry, the
  /// sort of each dictionary's keys, and its text's bytes as a string built
  /// (``Cost/string(_:folding:)``, folded: the bytes it writes are computed per element). Counted without building the text, and stopped as
  /// soon as it is over `stepsLeft` (then the budget fails with `limitExceeded`). A value
  /// nested deeper than ``Semantics/maxValueDepth`` is `limitExceeded` too, as for the
  /// other recursive walks.
  static func descriptionCost(_ v: SiftValue, stepsLeft: Int) throws(EvaluationError) -> Int {
    var count = DescriptionLength(limit: max(0, stepsLeft))
    write(v, depth: 0, quoted: false, into: &count)
    if count.over { throw Semantics.stepBudgetExceeded() }
    return count.steps
  }

  /// Where a description is written: the text itself, or only its cost.
  protocol DescriptionSink {
    mutating func append(_ s: String)
    mutating func appendSpaces(_ n: Int)
    /// Called once per element or entry.
    mutating func element()
    /// Called for a collection nested deeper than ``Semantics/maxValueDepth``.
    mutating func nestedTooDeep()
    /// Called before `n` keys are sorted.
    mutating func sorted(_ n: Int)
    /// Whether only the cost is wanted (the order of entries does not matter).
    var countsOnly: Bool { get }
    /// Whether writing can stop (the cost is already over its limit).
    var over: Bool { get }
  }

  /// The text of a description (its cost already checked).
  struct DescriptionText: DescriptionSink {
    var text = ""
    mutating func append(_ s: String) { text += s }
    mutating func appendSpaces(_ n: Int) { text += String(repeating: " ", count: n) }
    func element() {}
    func nestedTooDeep() {}
    func sorted(_ n: Int) {}
    var countsOnly: Bool { false }
    var over: Bool { false }
  }

  /// The cost of a description, counted up to a limit.
  struct DescriptionLength: DescriptionSink {
    let limit: Int
    var bytes = 0
    var elements = 0
    var tooDeep = false
    var sorting = 0
    var steps: Int { elements &+ sorting &+ Cost.string(bytes, folding: true) }
    var over: Bool { tooDeep || steps > limit || steps < 0 }
    var countsOnly: Bool { true }
    mutating func sorted(_ n: Int) { sorting &+= Cost.sortingStrings(n) }
    mutating func append(_ s: String) { bytes &+= s.utf8.count }
    mutating func appendSpaces(_ n: Int) { bytes &+= n }
    mutating func element() { elements &+= 1 }
    mutating func nestedTooDeep() { tooDeep = true }
  }

  /// Writes `v` at nesting `depth`. Strings inside a collection are quoted unless they are
  /// plain words. Recursion stops at ``Semantics/maxValueDepth``.
  private static func write(_ v: SiftValue, depth: Int, quoted: Bool, into out: inout some DescriptionSink) {
    switch v {
    case .null: out.append("<null>")
    case .bool(let b): out.append(b ? "1" : "0")
    case .int(let i): out.append(String(i))
    case .double(let d):
      if d.isFinite, d == d.rounded(.towardZero), Swift.abs(d) < 1e16 {
        out.append(String(Int(d)))
      } else {
        out.append(d.description)
      }
    case .string(let s): out.append(quoted ? quotedIfNeeded(s) : s)
    case .date(let seconds): out.append(dateDescription(seconds))
    case .array(let elements):
      if elements.isEmpty { return out.append("(\n)") }
      if depth >= Semantics.maxValueDepth { return out.nestedTooDeep() }
      out.append("(\n")
      for (k, e) in elements.enumerated() {
        if out.over { return }
        out.element()
        out.appendSpaces(4 * (depth + 1))
        write(e, depth: depth + 1, quoted: true, into: &out)
        out.append(k == elements.count - 1 ? "\n" : ",\n")
      }
      out.appendSpaces(4 * depth)
      out.append(")")
    case .dictionary(let d):
      if d.isEmpty { return out.append("{\n}") }
      if depth >= Semantics.maxValueDepth { return out.nestedTooDeep() }
      out.append("{\n")
      // Sorted by key for the text; the cost, which does not depend on the order, charges
      // the sort instead of doing it (``Cost/sortingStrings(_:)``).
      out.sorted(d.count)
      for (key, value) in out.countsOnly ? Array(d) : d.sorted(by: { $0.key < $1.key }) {
        if out.over { return }
        out.element()
        out.appendSpaces(4 * (depth + 1))
        out.append(quotedIfNeeded(key))
        out.append(" = ")
        write(value, depth: depth + 1, quoted: true, into: &out)
        out.append(";\n")
      }
      out.appendSpaces(4 * depth)
      out.append("}")
    }
  }

  /// NSDate's description: `2001-01-01 00:00:00 +0000` (UTC, whole seconds).
  static func dateDescription(_ secondsSince2001: Double) -> String {
    guard secondsSince2001.isFinite, Swift.abs(secondsSince2001) < 1e15 else { return secondsSince2001.description }
    let total = Int(secondsSince2001.rounded(.down))
    let (days, secondOfDay) = (total.floorDiv(86_400), total.floorMod(86_400))
    // Days since 2001-01-01 to a civil date (proleptic Gregorian), from 1970-based days.
    let z = days + 11_323 + 719_468
    let era = z.floorDiv(146_097)
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    let time = "\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))"
    return "\(year)-\(two(month))-\(two(day)) \(time) +0000"
  }

  /// Strings in a collection's description are quoted unless they are plain words.
  private static func quotedIfNeeded(_ s: String) -> String {
    let plain =
      !s.isEmpty
      && s.unicodeScalars.allSatisfy {
        $0.isASCII
          && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "." || $0 == "$" || $0 == "/"
            || $0 == ":")
      }
    if plain { return s }
    var out = "\""
    for c in s.unicodeScalars {
      switch c {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      default: out.unicodeScalars.append(c)
      }
    }
    return out + "\""
  }
}

extension Int {
  fileprivate func floorDiv(_ d: Int) -> Int { self >= 0 ? self / d : -((-self - 1) / d) - 1 }
  fileprivate func floorMod(_ d: Int) -> Int { self - floorDiv(d) * d }
}
