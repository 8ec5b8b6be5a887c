/// Per-evaluation state outside the registers: variables and the step budget. (Custom
/// functions are fixed at compile time and live in the ``Program``.)
struct Environment {
  /// nil for programs that touch no variables, so the caller's dictionary is not copied.
  var variables: [String: SiftValue]?
  var stepsLeft: Int

  /// Binds (or, with nil, unbinds) a variable.
  mutating func bind(_ name: String, _ value: SiftValue?) {
    if variables == nil { variables = [:] }
    variables![name] = value
  }
}
