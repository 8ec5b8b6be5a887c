import SiftFocus
import Testing

/// `import SiftFocus` is enough to compile the predicates a focus filter hands the system.
@Test func siftFocusReexportsSift() throws {
  let allowed = try SiftPredicate(format: "SELF IN %@", arguments: [["work-account-identifier"]])
  #expect(allowed.matches("work-account-identifier"))
  #expect(!allowed.matches("personal-account-identifier"))
}
