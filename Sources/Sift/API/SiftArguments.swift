import Foundation

extension SiftValue {
  /// A format argument or variable value from whatever a porting user holds: `String`,
  /// `Substring`, `Character`, integers of every width, `Float`, `Double`, `CGFloat`,
  /// `Decimal`, `Bool`, `Date`, `URL` (its absolute string), arrays, sets, dictionaries
  /// (nested, Swift's or Foundation's), optionals (nil is `nil`), `NSNumber`, `NSString`,
  /// `NSNull`, a ``SiftValue`` itself, any ``SiftFieldValue``, and a type (`NSString.self`,
  /// `String.self`), which becomes its Foundation class name for `isKindOfClass:`.
  /// nil when some value in it has no Sift equivalent (a `UUID`: pass its `uuidString`).
  public init?(argument value: Any?) {
    guard let converted = Self.argument(value) else { return nil }
    self = converted
  }

  static func argument(_ value: Any?) -> SiftValue? {
    guard let value else { return .null }
    switch value {
    case let s as Substring: return .string(String(s))
    case let c as Character: return .string(String(c))
    case let u as URL: return .string(u.absoluteString)
    case let d as Decimal: return .double(NSDecimalNumber(decimal: d).doubleValue)
    case let f as CGFloat: return .double(Double(f))
    case let type as Any.Type: return .string(foundationClassName(type))
    case let a as [Any?]: return argumentArray(a)
    default: return SiftValue(foundation: value) ?? fallback(value)
    }
  }

  private static func argumentArray(_ elements: [Any?]) -> SiftValue? {
    var out: [SiftValue] = []
    out.reserveCapacity(elements.count)
    for e in elements {
      guard let v = argument(e) else { return nil }
      out.append(v)
    }
    return .array(out)
  }

  /// Collections of the extra kinds above (`[Substring]`, `[String: URL]`).
  private static func fallback(_ value: Any) -> SiftValue? {
    if let d = value as? [String: Any] {
      var out: [String: SiftValue] = [:]
      for (k, v) in d {
        guard let converted = argument(v) else { return nil }
        out[k] = converted
      }
      return .dictionary(out)
    }
    if let s = value as? Set<AnyHashable> { return argumentArray(s.map(\.base)) }
    return nil
  }

  /// The Foundation class a Swift or Objective-C type stands for in `isKindOfClass:`.
  static func foundationClassName(_ type: Any.Type) -> String {
    switch type {
    case is String.Type, is Substring.Type, is Character.Type, is NSString.Type: return "NSString"
    case is Bool.Type, is any BinaryInteger.Type, is any BinaryFloatingPoint.Type, is Decimal.Type, is NSNumber.Type:
      return "NSNumber"
    case is Date.Type, is NSDate.Type: return "NSDate"
    case is NSNull.Type: return "NSNull"
    case is NSArray.Type: return "NSArray"
    case is NSDictionary.Type: return "NSDictionary"
    case is NSSet.Type: return "NSSet"
    default: break
    }
    let name = String(describing: type)
    if name.hasPrefix("Array<") { return "NSArray" }
    if name.hasPrefix("Dictionary<") { return "NSDictionary" }
    if name.hasPrefix("Set<") { return "NSSet" }
    return name
  }
}

extension SiftPredicate {
  /// `NSPredicate(format:_:…)`: the arguments are any Swift or Foundation values
  /// (``SiftValue/init(argument:)``), bound in order to `%@`, `%K` and the numeric
  /// specifiers; arguments beyond the specifiers are ignored, as Apple ignores them
  /// (``unusedArgumentCount``).
  public init(format: String, _ first: Any?, _ rest: Any?...) throws(PredicateSyntaxError) {
    try self.init(format: format, argumentArray: [first] + rest)
  }

  /// `NSPredicate(format:argumentArray:)`: ``init(format:_:_:)`` with the arguments in an
  /// array (nil for none).
  public init(format: String, argumentArray: [Any?]?, options: CompileOptions = CompileOptions())
    throws(PredicateSyntaxError)
  {
    var values: [SiftValue] = []
    for (i, argument) in (argumentArray ?? []).enumerated() {
      guard let value = SiftValue.argument(argument) else {
        let type = argument.map { String(describing: Swift.type(of: $0)) } ?? "nil"
        throw PredicateSyntaxError(
          SyntaxError(
            "argument \(i + 1) is a \(type), which Sift cannot read", at: .at(0),
            hint: "pass strings, numbers, booleans, dates, collections of them, or SiftValue"),
          source: format)
      }
      values.append(value)
    }
    try self.init(format: format, arguments: values, options: options)
  }

  /// `NSPredicate(value:)`: a predicate that is always `value` (`TRUEPREDICATE` or
  /// `FALSEPREDICATE`).
  public init(value: Bool) {
    do {
      try self.init(syntax: PredicateSyntax(.constant(value)))
    } catch {
      // A constant always compiles.
      preconditionFailure("a constant predicate failed to compile: \(error)")
    }
  }

  /// `NSCompoundPredicate(andPredicateWithSubpredicates:)`: true when every subpredicate
  /// is (an empty list is always true). Compiled with `options`, by default the first
  /// subpredicate's.
  public init(andPredicateWithSubpredicates subpredicates: [SiftPredicate], options: CompileOptions? = nil)
    throws(PredicateSyntaxError)
  {
    try self.init(compound: subpredicates, isAnd: true, options: options)
  }

  /// `NSCompoundPredicate(orPredicateWithSubpredicates:)`: true when some subpredicate is
  /// (an empty list is always false).
  public init(orPredicateWithSubpredicates subpredicates: [SiftPredicate], options: CompileOptions? = nil)
    throws(PredicateSyntaxError)
  {
    try self.init(compound: subpredicates, isAnd: false, options: options)
  }

  /// `NSCompoundPredicate(notPredicateWithSubpredicate:)`: true when `subpredicate` is not.
  public init(notPredicateWithSubpredicate subpredicate: SiftPredicate, options: CompileOptions? = nil)
    throws(PredicateSyntaxError)
  {
    try self.init(syntax: PredicateSyntax(.not(subpredicate.syntax)), options: options ?? subpredicate.options)
  }

  /// `a AND b AND …` of compiled predicates (their trees, arguments already bound).
  public static func and(_ subpredicates: [SiftPredicate]) throws(PredicateSyntaxError) -> SiftPredicate {
    try SiftPredicate(andPredicateWithSubpredicates: subpredicates)
  }

  /// `a OR b OR …` of compiled predicates.
  public static func or(_ subpredicates: [SiftPredicate]) throws(PredicateSyntaxError) -> SiftPredicate {
    try SiftPredicate(orPredicateWithSubpredicates: subpredicates)
  }

  /// `NOT p`.
  public static func not(_ subpredicate: SiftPredicate) throws(PredicateSyntaxError) -> SiftPredicate {
    try SiftPredicate(notPredicateWithSubpredicate: subpredicate)
  }

  private init(compound subpredicates: [SiftPredicate], isAnd: Bool, options: CompileOptions?)
    throws(PredicateSyntaxError)
  {
    let trees = subpredicates.map(\.syntax)
    let syntax: PredicateSyntax
    switch trees.count {
    case 0: syntax = PredicateSyntax(.constant(isAnd))
    case 1: syntax = trees[0]
    default: syntax = PredicateSyntax(isAnd ? .and(trees) : .or(trees))
    }
    try self.init(syntax: syntax, options: options ?? subpredicates.first?.options ?? CompileOptions())
  }

  /// How many of ``arguments`` the format's specifiers left unused (Apple ignores them,
  /// and so does Sift; `sift check` warns about them).
  public var unusedArgumentCount: Int { PredicateSyntax.unusedArgumentCount(in: format, arguments: arguments.count) }

  /// `NSPredicate.evaluate(with:substitutionVariables:)`: evaluates against any value
  /// (a ``SiftValue``, a ``SiftRecord``, a `String`, or Foundation values) with variables
  /// given as any Swift or Foundation values (``SiftValue/init(argument:)``); a variable
  /// Sift cannot read is an `invalidArgument` error.
  public func evaluate(with object: Any?, substitutionVariables: [String: Any]?) throws(EvaluationError) -> Bool {
    var variables: [String: SiftValue] = [:]
    for (name, value) in substitutionVariables ?? [:] {
      guard let converted = SiftValue.argument(value) else {
        let type = String(describing: Swift.type(of: value))
        throw EvaluationError(.invalidArgument, "variable $\(name) is a \(type), which Sift cannot read")
      }
      variables[name] = converted
    }
    switch object {
    case let value as SiftValue: return try evaluate(with: value, variables: variables)
    case let record as SiftRecord: return try evaluate(with: record, variables: variables)
    case let string as String: return try evaluate(with: string, variables: variables)
    default: return try evaluate(with: object, variables: variables)
    }
  }
}
