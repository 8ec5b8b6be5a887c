/// The NSExpression function list. The raw value is the selector Apple prints
/// (`add:to:`); in source a call may also be written with the first part only (`add(1, 2)`).
public enum BuiltinFunction: String, Hashable, Sendable, CaseIterable {
  /// `sum:(array)`
  case sum = "sum:"
  /// `count:(array)`
  case count = "count:"
  /// `min:(array)`
  case min = "min:"
  /// `max:(array)`
  case max = "max:"
  /// `average:(array)`
  case average = "average:"
  /// `median:(array)`
  case median = "median:"
  /// `mode:(array)`: an array of the most frequent values.
  case mode = "mode:"
  /// `stddev:(array)`: population standard deviation.
  case stddev = "stddev:"
  /// `add:to:(a, b)`
  case add = "add:to:"
  /// `from:subtract:(a, b)`: a - b.
  case subtract = "from:subtract:"
  /// `multiply:by:(a, b)`
  case multiply = "multiply:by:"
  /// `divide:by:(a, b)`
  case divide = "divide:by:"
  /// `modulus:by:(a, b)`
  case modulus = "modulus:by:"
  /// `sqrt:(x)`
  case sqrt = "sqrt:"
  /// `log:(x)`: base 10.
  case log = "log:"
  /// `ln:(x)`: natural logarithm.
  case ln = "ln:"
  /// `raise:toPower:(x, y)`
  case raise = "raise:toPower:"
  /// `exp:(x)`
  case exp = "exp:"
  /// `floor:(x)`
  case floor = "floor:"
  /// `ceiling:(x)`
  case ceiling = "ceiling:"
  /// `abs:(x)`
  case abs = "abs:"
  /// `trunc:(x)`
  case trunc = "trunc:"
  /// `uppercase:(s)`
  case uppercase = "uppercase:"
  /// `lowercase:(s)`
  case lowercase = "lowercase:"
  /// `random()`: a number in [0, 1).
  case random = "random"
  /// `random:(array)`: a random element.
  case randomElement = "random:"
  /// `randomn:(n)`: an integer in [0, n).
  case randomInteger = "randomn:"
  /// `now()`: the current date.
  case now = "now"
  /// `noindex:(x)`: x (an indexing hint on Apple platforms).
  case noindex = "noindex:"
  /// `length:(s)`: the string's length.
  case length = "length:"
  /// `bitwiseAnd:with:(a, b)`
  case bitwiseAnd = "bitwiseAnd:with:"
  /// `bitwiseOr:with:(a, b)`
  case bitwiseOr = "bitwiseOr:with:"
  /// `bitwiseXor:with:(a, b)`
  case bitwiseXor = "bitwiseXor:with:"
  /// `leftshift:by:(a, b)`
  case leftShift = "leftshift:by:"
  /// `rightshift:by:(a, b)`
  case rightShift = "rightshift:by:"
  /// `onesComplement:(a)`
  case onesComplement = "onesComplement:"

  /// The number of arguments the function takes.
  public var arity: Int {
    let colons = rawValue.utf8.count(where: { $0 == UInt8(ascii: ":") })
    return colons
  }

  /// The name used in call form: the selector's first part.
  public var callName: String { String(rawValue.prefix(while: { $0 != ":" })) }

  /// Finds the function written as `name(…)` with `arguments` arguments.
  static func lookup(callName: String, arity: Int) -> BuiltinFunction? {
    allCases.first { $0.callName == callName && $0.arity == arity }
  }
}
