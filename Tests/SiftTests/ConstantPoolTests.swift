import Testing

@testable import Sift

/// A compiled predicate's constants live as long as the predicate, and no longer.
@Suite struct ConstantPoolTests {
  /// The pool keeps its own copy of each value for the VM to read by pointer; the copies
  /// must be released with the pool (they were not: every array or long string constant
  /// leaked, found by the `evaluate` fuzz target's leak checker).
  @Test(arguments: ["x IN %@", "ANY xs IN %@ AND n == 1", "%@ CONTAINS x"])
  func aDroppedPredicateReleasesItsConstants(_ format: String) throws {
    weak var storage: AnyObject?
    do {
      let members: [SiftValue] = (0..<8).map { .string("member number \($0), long enough to be stored apart") }
      // An array's storage is one object; a weak reference to it says when it is freed.
      let object = unsafeBitCast(members, to: AnyObject.self)
      storage = object
      let predicate = try SiftPredicate(format: format, arguments: [.array(members)])
      _ = predicate.matches(["x": "member number 1, long enough to be stored apart", "xs": [], "n": 1])
      #expect(storage != nil)
    }
    #expect(storage == nil)
  }
}
