import Testing

@testable import SiftSyntax

/// Comparison predicates: every operator and alias, options, quantifiers, simple operands.
@Suite struct ParserComparisonTests {
  @Test(arguments: [
    ("a == 1", "a == 1"), ("a = 1", "a == 1"), ("a != 1", "a != 1"), ("a <> 1", "a != 1"),
    ("a < 1", "a < 1"), ("a > 1", "a > 1"), ("a <= 1", "a <= 1"), ("a =< 1", "a <= 1"),
    ("a >= 1", "a >= 1"), ("a => 1", "a >= 1"),
    ("a==1", "a == 1"), ("a=1", "a == 1"), ("a<>1", "a != 1"), ("a=<1", "a <= 1"), ("a=>1", "a >= 1"),
    ("a BETWEEN {1, 2}", "a BETWEEN {1, 2}"), ("a between {1,2}", "a BETWEEN {1, 2}"),
    ("a IN {1}", "a IN {1}"), ("a in {1}", "a IN {1}"),
    ("a CONTAINS 'x'", "a CONTAINS \"x\""), ("a contains 'x'", "a CONTAINS \"x\""),
    ("a BEGINSWITH 'x'", "a BEGINSWITH \"x\""), ("a beginsWith 'x'", "a BEGINSWITH \"x\""),
    ("a ENDSWITH 'x'", "a ENDSWITH \"x\""), ("a endswith 'x'", "a ENDSWITH \"x\""),
    ("a LIKE 'x*'", "a LIKE \"x*\""), ("a Like 'x?'", "a LIKE \"x?\""),
    ("a MATCHES '.*'", "a MATCHES \".*\""), ("a matches '\\\\d+'", "a MATCHES \"\\\\d+\""),
  ])
  func operatorAndAlias(_ source: String, _ expected: String) {
    #expect(canonical(source) == expected)
  }

  @Test(arguments: ComparisonOperator.allCases)
  func everyOperatorParsesFromItsCanonicalSpelling(_ op: ComparisonOperator) throws {
    let p = try parse("a \(op.rawValue) b")
    #expect(
      p.kind
        == .comparison(
          ComparisonSyntax(
            .init(.keyPath(base: nil, keys: ["a"])), op, .init(.keyPath(base: nil, keys: ["b"])))))
    #expect(p.predicateFormat == "a \(op.rawValue) b")
  }

  @Test(arguments: [
    ("a ==[c] b", "a ==[c] b"), ("a ==[d] b", "a ==[d] b"), ("a ==[n] b", "a ==[n] b"),
    ("a ==[l] b", "a ==[l] b"),
    ("a ==[cd] b", "a ==[cd] b"), ("a ==[dc] b", "a ==[cd] b"), ("a ==[DC] b", "a ==[cd] b"),
    ("a ==[Cd] b", "a ==[cd] b"), ("a ==[ cd ] b", "a ==[cd] b"), ("a == [cd] b", "a ==[cd] b"),
    ("a ==\n[\tcd\n]\nb", "a ==[cd] b"), ("a ==[lndc] b", "a ==[cdnl] b"), ("a ==[cc] b", "a ==[c] b"),
    ("a CONTAINS[cd] 'x'", "a CONTAINS[cd] \"x\""), ("a contains [ C ] 'x'", "a CONTAINS[c] \"x\""),
    ("a BEGINSWITH[dc] 'x'", "a BEGINSWITH[cd] \"x\""), ("a ENDSWITH[n] 'x'", "a ENDSWITH[n] \"x\""),
    ("a LIKE[c] 'x'", "a LIKE[c] \"x\""), ("a MATCHES[cd] 'x'", "a MATCHES[cd] \"x\""),
    ("a CONTAINS[cdl] 'x'", "a CONTAINS[cdl] \"x\""), ("a IN[cd] {'x'}", "a IN[cd] {\"x\"}"),
    ("a BETWEEN[c] {1, 2}", "a BETWEEN[c] {1, 2}"), ("a !=[c] b", "a !=[c] b"), ("a <[d] b", "a <[d] b"),
    ("a <=[c] b", "a <=[c] b"), ("a >[c] b", "a >[c] b"), ("a >=[c] b", "a >=[c] b"),
    ("a =[c] b", "a ==[c] b"), ("a <>[c] b", "a !=[c] b"), ("a =<[c] b", "a <=[c] b"),
    ("a =>[c] b", "a >=[c] b"),
  ])
  func options(_ source: String, _ expected: String) {
    #expect(canonical(source) == expected)
  }

  @Test(arguments: [
    ("a ==[cd] b", ComparisonOptions([.caseInsensitive, .diacriticInsensitive])),
    ("a ==[n] b", ComparisonOptions.normalized), ("a ==[l] b", ComparisonOptions.localeSensitive),
    (
      "a ==[LNDC] b",
      ComparisonOptions([.caseInsensitive, .diacriticInsensitive, .normalized, .localeSensitive])
    ),
    ("a == b", ComparisonOptions()),
  ])
  func optionBits(_ source: String, _ bits: ComparisonOptions) throws {
    guard case .comparison(let c) = try parse(source).kind else {
      Issue.record("not a comparison")
      return
    }
    #expect(c.options == bits)
  }

  @Test(arguments: [
    ("ANY a == 1", "ANY a == 1"), ("any a == 1", "ANY a == 1"), ("Any a == 1", "ANY a == 1"),
    ("SOME a == 1", "ANY a == 1"), ("some a == 1", "ANY a == 1"),
    ("ALL a > 1", "ALL a > 1"), ("all a > 1", "ALL a > 1"),
    ("NONE a == 1", "NOT ANY a == 1"), ("none a == 1", "NOT ANY a == 1"),
    ("ANY a.b CONTAINS[c] 'x'", "ANY a.b CONTAINS[c] \"x\""),
    ("ALL a.@count BETWEEN {1, 2}", "ALL a.@count BETWEEN {1, 2}"),
    ("ANY SUBQUERY(x, $y, $y > 1) == 2", "ANY SUBQUERY(x, $y, $y > 1) == 2"),
    ("ANY (a) == 1", "ANY a == 1"), ("ANY -a == 1", "ANY -a == 1"),
    ("NOT ANY a == 1", "NOT ANY a == 1"), ("NOT NONE a == 1", "NOT NOT ANY a == 1"),
    ("ANY a == 1 AND ALL b == 2", "ANY a == 1 AND ALL b == 2"),
  ])
  func quantifier(_ source: String, _ expected: String) {
    #expect(canonical(source) == expected)
  }

  @Test func noneIsNotAny() throws {
    #expect(try parse("NONE a == 1") == parse("NOT ANY a == 1"))
    #expect(try parse("SOME a == 1") == parse("ANY a == 1"))
  }

  @Test(arguments: [
    ("1 == a", "1 == a"), ("'x' == a", "\"x\" == a"), ("nil == a", "nil == a"), ("NULL == a", "nil == a"),
    ("null == NIL", "nil == nil"), ("TRUE == YES", "TRUE == TRUE"), ("FALSE != NO", "FALSE != FALSE"),
    ("true == yes", "TRUE == TRUE"), ("SELF == self", "SELF == SELF"), ("$x == $y", "$x == $y"),
    ("1 < 2", "1 < 2"), ("{} == {}", "{} == {}"),
  ])
  func simpleOperands(_ source: String, _ expected: String) {
    #expect(canonical(source) == expected)
  }
}
