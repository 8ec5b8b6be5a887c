import Foundation

/// A Swift type a field of a ``SiftTyped`` type can have: what its values are to a
/// predicate, and what kind of value it always is (for the checks made when a predicate is
/// compiled for the type).
///
/// `String`, the integer types, `Double`, `Float`, `Bool`, `Date`, `SiftValue`, optionals
/// and arrays of these, `Set`s of strings, string-keyed dictionaries and every ``SiftTyped``
/// type conform. An enum with a raw value conforms with an empty extension
/// (`extension Status: SiftFieldValue {}`): its raw value is what predicates see.
public protocol SiftFieldValue {
  /// The value as predicates see it.
  var siftValue: SiftValue { get }
  /// What every value of this type is (``SiftFieldKind/any`` when it varies).
  static var siftFieldKind: SiftFieldKind { get }
}

/// The kind of value a field always holds, known when a predicate is compiled for its type:
/// a comparison that cannot work on it (`age BEGINSWITH 'a'` on an `Int` field) is then a
/// compile error instead of an error at every evaluation.
public struct SiftFieldKind: Hashable, Sendable, CustomStringConvertible {
  indirect enum Storage: Hashable, Sendable {
    case string, int, double, bool, date, dictionary, any
    case optional(Storage)
    case array(Storage)
  }

  let storage: Storage

  init(_ storage: Storage) { self.storage = storage }

  /// A string.
  public static let string = SiftFieldKind(.string)
  /// An integer.
  public static let int = SiftFieldKind(.int)
  /// A floating-point number.
  public static let double = SiftFieldKind(.double)
  /// A boolean.
  public static let bool = SiftFieldKind(.bool)
  /// A date.
  public static let date = SiftFieldKind(.date)
  /// A string-keyed dictionary (a nested ``SiftTyped`` value is one).
  public static let dictionary = SiftFieldKind(.dictionary)
  /// Anything: no compile-time check applies.
  public static let any = SiftFieldKind(.any)
  /// `nil` or a value of `kind`.
  public static func optional(_ kind: SiftFieldKind) -> SiftFieldKind {
    if case .optional = kind.storage { return kind }
    return SiftFieldKind(.optional(kind.storage))
  }
  /// An array of values of `kind`.
  public static func array(_ kind: SiftFieldKind) -> SiftFieldKind { SiftFieldKind(.array(kind.storage)) }

  /// The kind as Swift spells the type (`Int`, `[String]`, `String?`).
  public var description: String { Self.describe(storage) }

  private static func describe(_ s: Storage) -> String {
    switch s {
    case .string: "String"
    case .int: "Int"
    case .double: "Double"
    case .bool: "Bool"
    case .date: "Date"
    case .dictionary: "dictionary"
    case .any: "any value"
    case .optional(let k): describe(k) + "?"
    case .array(let k): "[" + describe(k) + "]"
    }
  }
}

extension String: SiftFieldValue {
  /// The string.
  public var siftValue: SiftValue { .string(self) }
  /// ``SiftFieldKind/string``.
  public static var siftFieldKind: SiftFieldKind { .string }
}

extension Bool: SiftFieldValue {
  /// The boolean.
  public var siftValue: SiftValue { .bool(self) }
  /// ``SiftFieldKind/bool``.
  public static var siftFieldKind: SiftFieldKind { .bool }
}

extension Double: SiftFieldValue {
  /// The number.
  public var siftValue: SiftValue { .double(self) }
  /// ``SiftFieldKind/double``.
  public static var siftFieldKind: SiftFieldKind { .double }
}

extension Float: SiftFieldValue {
  /// The number as a `Double`.
  public var siftValue: SiftValue { .double(Double(self)) }
  /// ``SiftFieldKind/double``.
  public static var siftFieldKind: SiftFieldKind { .double }
}

extension Date: SiftFieldValue {
  /// The date.
  public var siftValue: SiftValue { .date(secondsSinceReferenceDate: timeIntervalSinceReferenceDate) }
  /// ``SiftFieldKind/date``.
  public static var siftFieldKind: SiftFieldKind { .date }
}

extension SiftValue: SiftFieldValue {
  /// The value itself.
  public var siftValue: SiftValue { self }
  /// ``SiftFieldKind/any``.
  public static var siftFieldKind: SiftFieldKind { .any }
}

extension Int: SiftFieldValue {}
extension Int8: SiftFieldValue {}
extension Int16: SiftFieldValue {}
extension Int32: SiftFieldValue {}
extension Int64: SiftFieldValue {}
extension UInt: SiftFieldValue {}
extension UInt8: SiftFieldValue {}
extension UInt16: SiftFieldValue {}
extension UInt32: SiftFieldValue {}
extension UInt64: SiftFieldValue {}

extension SiftFieldValue where Self: FixedWidthInteger {
  /// The integer; an unsigned value above `Int.max` is a double, as for `NSNumber`.
  public var siftValue: SiftValue {
    if let i = Int(exactly: self) { return .int(i) }
    return .double(Double(self))
  }
  /// ``SiftFieldKind/int`` (a `UInt64` above `Int.max` reads as a double; no check
  /// rejects what both allow).
  public static var siftFieldKind: SiftFieldKind { .int }
}

extension SiftFieldValue where Self: RawRepresentable, RawValue: SiftFieldValue {
  /// The raw value.
  public var siftValue: SiftValue { rawValue.siftValue }
  /// The raw value's kind.
  public static var siftFieldKind: SiftFieldKind { RawValue.siftFieldKind }
}

extension Optional: SiftFieldValue where Wrapped: SiftFieldValue {
  /// `nil`, or the wrapped value.
  public var siftValue: SiftValue { self?.siftValue ?? .null }
  /// The wrapped kind, optional.
  public static var siftFieldKind: SiftFieldKind { .optional(Wrapped.siftFieldKind) }
}

extension Array: SiftFieldValue where Element: SiftFieldValue {
  /// The elements, in order.
  public var siftValue: SiftValue { .array(map { $0.siftValue }) }
  /// An array of the element kind.
  public static var siftFieldKind: SiftFieldKind { .array(Element.siftFieldKind) }
}

extension Set: SiftFieldValue where Element: SiftFieldValue {
  /// The members as an array, in the set's iteration order (predicates test membership,
  /// counts and aggregates, which do not depend on it).
  public var siftValue: SiftValue { .array(map { $0.siftValue }) }
  /// An array of the element kind.
  public static var siftFieldKind: SiftFieldKind { .array(Element.siftFieldKind) }
}

extension Dictionary: SiftFieldValue where Key == String, Value: SiftFieldValue {
  /// A dictionary of the values.
  public var siftValue: SiftValue { .dictionary(mapValues { $0.siftValue }) }
  /// ``SiftFieldKind/dictionary``.
  public static var siftFieldKind: SiftFieldKind { .dictionary }
}
