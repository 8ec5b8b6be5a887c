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

  /// The result of the built-in `name` on `arguments` (the receiver first); nil when there
  /// is no built-in of that name and arity.
  package static func call(_ name: String, _ arguments: [SiftValue]) throws(EvaluationError) -> SiftValue? {
    guard let receiver = arguments.first else { return nil }
    let rest = arguments.dropFirst()
    if rest.isEmpty {
      return try unary(name, receiver)
    }
    guard rest.count == 1, let argument = rest.first else { return nil }
    return try binary(name, receiver, argument)
  }

  private static func unary(_ name: String, _ x: SiftValue) throws(EvaluationError) -> SiftValue? {
    func unsupported() -> EvaluationError {
      EvaluationError(.typeMismatch, "FUNCTION '\(name)' is not a method of a \(x.kindName)")
    }
    switch name {
    case "uppercaseString", "lowercaseString", "capitalizedString", "length":
      if case .null = x { return .null }
      guard case .string(let s) = x else { throw unsupported() }
      switch name {
      case "uppercaseString": return .string(s.uppercased())
      case "lowercaseString": return .string(s.lowercased())
      case "capitalizedString": return .string(capitalized(s))
      default: return .int(s.utf16.count)
      }
    case "intValue", "integerValue", "doubleValue", "floatValue", "boolValue":
      switch x {
      case .null: return .null
      case .string(let s): return stringNumber(name, s)
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

  private static func binary(_ name: String, _ x: SiftValue, _ y: SiftValue) throws(EvaluationError) -> SiftValue? {
    switch name {
    case "hasPrefix:", "hasSuffix:", "stringByAppendingString:", "isEqualToString:":
      if case .null = x { return .null }
      guard case .string(let s) = x, case .string(let t) = y else {
        let bad = { if case .string = x { return y } else { return x } }()
        throw EvaluationError(.typeMismatch, "FUNCTION '\(name)' needs strings, not a \(bad.kindName)")
      }
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
      return .bool(try Semantics.compare(x, .equal, y, [], regex: RegexLimits()))
    case "containsObject:":
      switch x {
      case .null: return .null
      case .array(let elements):
        for e in elements where try Semantics.compare(e, .equal, y, [], regex: RegexLimits()) { return .bool(true) }
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
  /// (`"don't stop 1st"` is `"Don'T Stop 1St"`, as on Apple platforms).
  static func capitalized(_ s: String) -> String {
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
  /// NSArray and NSDictionary.
  static func description(_ v: SiftValue, indent: String = "") -> String {
    switch v {
    case .null: return "<null>"
    case .bool(let b): return b ? "1" : "0"
    case .int(let i): return String(i)
    case .double(let d):
      if d.isFinite, d == d.rounded(.towardZero), Swift.abs(d) < 1e16 { return String(Int(d)) }
      return d.description
    case .string(let s): return s
    case .date(let seconds): return dateDescription(seconds)
    case .array(let elements):
      if elements.isEmpty { return "(\n)" }
      let inner = indent + "    "
      return "(\n" + elements.map { inner + element($0, indent: inner) }.joined(separator: ",\n") + "\n" + indent + ")"
    case .dictionary(let d):
      if d.isEmpty { return "{\n}" }
      let inner = indent + "    "
      return "{\n"
        + d.keys.sorted().map { inner + quotedIfNeeded($0) + " = " + element(d[$0]!, indent: inner) + ";\n" }.joined()
        + indent + "}"
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

  private static func element(_ v: SiftValue, indent: String) -> String {
    if case .string(let s) = v { return quotedIfNeeded(s) }
    return description(v, indent: indent)
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
