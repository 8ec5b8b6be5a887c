import Testing

@testable import Sift

/// ``BuiltinSelectors/answers(_:argumentCount:)`` says, from the name alone, what
/// ``BuiltinSelectors/call(_:_:)`` does: answer (or fail on the operands' types) for a
/// built-in of that name and arity, return nil for anything else.
@Suite struct BuiltinSelectorArityTests {
  static let names = Array(BuiltinSelectors.names) + ["nope", "nope:", "description:", "hasPrefix", "a:b:", ""]

  @Test(arguments: names, 0...2)
  func answersAgreesWithCall(_ name: String, _ argumentCount: Int) {
    // Receivers of every kind the built-ins distinguish, so that a built-in never returns
    // nil for want of the right operand.
    let operands: [SiftValue] = [.null, "text", .int(3), .array(["text"]), .dictionary(["k": 1])]
    var answered = false
    for receiver in operands {
      for argument in operands {
        let arguments = [receiver] + Array(repeating: argument, count: argumentCount)
        do {
          if try BuiltinSelectors.call(name, arguments) != nil { answered = true }
        } catch {
          // A type error: the built-in exists and looked at the operands.
          answered = true
        }
      }
    }
    #expect(BuiltinSelectors.answers(name, argumentCount: argumentCount) == answered, "\(name) / \(argumentCount)")
  }
}
