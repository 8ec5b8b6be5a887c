import Testing

@testable import SiftSyntax

/// Golden `treeDump` text (node kinds, details and byte ranges) for every construct.
@Suite struct ParserTreeDumpTests {
  static let cases: [(String, String)] = [
    (
      #"name == "Adam""#,
      """
      comparison == @0..<14
        keyPath name @0..<4
        constant string "Adam" @8..<14
      """
    ),
    (
      "ANY tags CONTAINS[cd] 'x'",
      """
      comparison CONTAINS[cd] ANY @0..<25
        keyPath tags @4..<8
        constant string "x" @22..<25
      """
    ),
    (
      // NONE is NOT around ANY; both nodes cover the whole comparison.
      "NONE tags == 1",
      """
      not @0..<14
        comparison == ANY @0..<14
          keyPath tags @5..<9
          constant number 1 @13..<14
      """
    ),
    (
      "ALL n >= 0",
      """
      comparison >= ALL @0..<10
        keyPath n @4..<5
        constant number 0 @9..<10
      """
    ),
    (
      "SOME n =< 0",
      """
      comparison <= ANY @0..<11
        keyPath n @5..<6
        constant number 0 @10..<11
      """
    ),
    (
      // A parenthesised predicate covers its parentheses, like a parenthesised expression.
      "NOT a == 1 AND (b < 2 OR !c > 3)",
      """
      and @0..<32
        not @0..<10
          comparison == @4..<10
            keyPath a @4..<5
            constant number 1 @9..<10
        or @15..<32
          comparison < @16..<21
            keyPath b @16..<17
            constant number 2 @20..<21
          not @25..<31
            comparison > @26..<31
              keyPath c @26..<27
              constant number 3 @30..<31
      """
    ),
    (
      "TRUEPREDICATE OR FALSEPREDICATE",
      """
      or @0..<31
        TRUEPREDICATE @0..<13
        FALSEPREDICATE @17..<31
      """
    ),
    (
      "((a == 1))",
      """
      comparison == @0..<10
        keyPath a @2..<3
        constant number 1 @7..<8
      """
    ),
    (
      "(2 + 3) * 4 == 20",
      """
      comparison == @0..<17
        binary * @0..<11
          binary + @0..<7
            constant number 2 @1..<2
            constant number 3 @5..<6
          constant number 4 @10..<11
        constant number 20 @15..<17
      """
    ),
    (
      // Unary minus binds tighter than **; a minus before a literal is folded into it.
      "-x ** 2 >= -2.5 - ~y",
      """
      comparison >= @0..<20
        binary ** @0..<7
          negate @0..<2
            keyPath x @1..<2
          constant number 2 @6..<7
        binary - @11..<20
          constant number -2.5 @11..<15
          bitwiseNot @18..<20
            keyPath y @19..<20
      """
    ),
    (
      "((a + 1)) == -(b)",
      """
      comparison == @0..<17
        binary + @0..<9
          keyPath a @2..<3
          constant number 1 @6..<7
        negate @13..<17
          keyPath b @14..<17
      """
    ),
    (
      "a | b ^ c & d << 1 >> 2 == 0",
      """
      comparison == @0..<28
        binary | @0..<23
          keyPath a @0..<1
          binary ^ @4..<23
            keyPath b @4..<5
            binary & @8..<23
              keyPath c @8..<9
              binary >> @12..<23
                binary << @12..<18
                  keyPath d @12..<13
                  constant number 1 @17..<18
                constant number 2 @22..<23
        constant number 0 @27..<28
      """
    ),
    (
      "x BETWEEN {1, 10}",
      """
      comparison BETWEEN @0..<17
        keyPath x @0..<1
        aggregate 2 @10..<17
          constant number 1 @11..<12
          constant number 10 @14..<16
      """
    ),
    (
      #"items[FIRST].name == items[LAST].name AND items[SIZE] > items[0 + 1].count AND dict["key"] == 1"#,
      """
      and @0..<95
        comparison == @0..<37
          keyPath name @0..<17
            index FIRST @0..<12
              keyPath items @0..<5
          keyPath name @21..<37
            index LAST @21..<32
              keyPath items @21..<26
        comparison > @42..<74
          index SIZE @42..<53
            keyPath items @42..<47
          keyPath count @56..<74
            index @56..<68
              keyPath items @56..<61
              binary + @62..<67
                constant number 0 @62..<63
                constant number 1 @66..<67
        comparison == @79..<95
          index @79..<90
            keyPath dict @79..<83
            constant string "key" @84..<89
          constant number 1 @94..<95
      """
    ),
    (
      "a.b.c[0].@count.d == -5",
      """
      comparison == @0..<23
        keyPath @count.d @0..<17
          index @0..<8
            keyPath a.b.c @0..<5
            constant number 0 @6..<7
        constant number -5 @21..<23
      """
    ),
    (
      "x.y[1][2] == $v := {\"a\", 1.5e3, -0.0}",
      """
      comparison == @0..<37
        index @0..<9
          index @0..<6
            keyPath x.y @0..<3
            constant number 1 @4..<5
          constant number 2 @7..<8
        assign $v @13..<37
          aggregate 3 @19..<37
            constant string "a" @20..<23
            constant number 1500.0 @25..<30
            constant number -0.0 @32..<36
      """
    ),
    (
      "{}.@count == 0",
      """
      comparison == @0..<14
        keyPath @count @0..<9
          aggregate 0 @0..<2
        constant number 0 @13..<14
      """
    ),
    (
      "SUBQUERY(employees, $e, $e.salary > 1000).@count > 0",
      """
      comparison > @0..<52
        keyPath @count @0..<48
          SUBQUERY $e @0..<41
            keyPath employees @9..<18
            comparison > @24..<40
              keyPath salary @24..<33
                variable $e @24..<26
              constant number 1000 @36..<40
        constant number 0 @51..<52
      """
    ),
    (
      "sum:(nums) == add:to:(1, 2) OR average(nums) == now()",
      """
      or @0..<53
        comparison == @0..<27
          function sum: @0..<10
            keyPath nums @5..<9
          function add:to: @14..<27
            constant number 1 @22..<23
            constant number 2 @25..<26
        comparison == @31..<53
          function average: @31..<44
            keyPath nums @39..<43
          function now @48..<53
      """
    ),
    (
      "FUNCTION(SELF, 'uppercase', name) == CAST('3', 'NSNumber')",
      """
      comparison == @0..<58
        FUNCTION "uppercase" @0..<33
          self @9..<13
          keyPath name @28..<32
        CAST "NSNumber" @37..<58
          constant string "3" @42..<45
      """
    ),
    (
      "TERNARY(a > 1, 'big', 'small') == 'big'",
      """
      comparison == @0..<39
        TERNARY @0..<30
          comparison > @8..<13
            keyPath a @8..<9
            constant number 1 @12..<13
          constant string "big" @15..<20
          constant string "small" @22..<29
        constant string "big" @34..<39
      """
    ),
    (
      "$x := 5 < $y := $x + 1",
      """
      comparison < @0..<22
        assign $x @0..<7
          constant number 5 @6..<7
        assign $y @10..<22
          binary + @16..<22
            variable $x @16..<18
            constant number 1 @21..<22
      """
    ),
    (
      // `self` after a dot is the key `self`; `SELF.key` is just `key`.
      "nums.@sum.self == 10 AND #like == self.#size",
      """
      and @0..<44
        comparison == @0..<20
          keyPath nums.@sum.self @0..<14
          constant number 10 @18..<20
        comparison == @25..<44
          keyPath like @25..<30
          keyPath size @34..<44
      """
    ),
    (
      "$a.b[$i] == nil AND YES != NO",
      """
      and @0..<29
        comparison == @0..<15
          index @0..<8
            keyPath b @0..<4
              variable $a @0..<2
            variable $i @5..<7
          constant null nil @12..<15
        comparison != @20..<29
          constant boolean TRUE @20..<23
          constant boolean FALSE @27..<29
      """
    ),
    (
      "a == 1\n  AND b IN {1,\n 2}",
      """
      and @0..<25
        comparison == @0..<6
          keyPath a @0..<1
          constant number 1 @5..<6
        comparison IN @13..<25
          keyPath b @13..<14
          aggregate 2 @18..<25
            constant number 1 @19..<20
            constant number 2 @23..<24
      """
    ),
    (
      // Ranges are UTF-8 byte offsets.
      "é == '日本' AND ü BEGINSWITH[n] 'x'",
      """
      and @0..<39
        comparison == @0..<14
          keyPath é @0..<2
          constant string "日本" @6..<14
        comparison BEGINSWITH[n] @19..<39
          keyPath ü @19..<21
          constant string "x" @36..<39
      """
    ),
  ]

  @Test(arguments: cases)
  func treeDump(_ source: String, _ expected: String) throws {
    let predicate = try parse(source)
    #expect(predicate.treeDump == expected)
  }

  @Test func boundArgumentsAreDumpedWithTheSpecifierRange() throws {
    let predicate = try parse(
      "%K == %@ AND d < %@ AND n IN %@ AND x == %d",
      ["a.b", "s", .date(secondsSinceReferenceDate: 1.5), [1, "x"], 7])
    #expect(
      predicate.treeDump == """
        and @0..<43
          comparison == @0..<8
            keyPath a.b @0..<2
            constant string "s" @6..<8
          comparison < @13..<19
            keyPath d @13..<14
            constant date CAST(1.5, "NSDate") @17..<19
          comparison IN @24..<31
            keyPath n @24..<25
            constant array {1, "x"} @29..<31
          comparison == @36..<43
            keyPath x @36..<37
            constant number 7 @41..<43
        """)
  }

  @Test func bothPrecedenceSettingsDumpDifferentTrees() throws {
    let source = "a == 1 OR b == 2 AND c == 3"
    #expect(
      try parse(source, [], .orBindsTighter).treeDump == """
        and @0..<27
          or @0..<16
            comparison == @0..<6
              keyPath a @0..<1
              constant number 1 @5..<6
            comparison == @10..<16
              keyPath b @10..<11
              constant number 2 @15..<16
          comparison == @21..<27
            keyPath c @21..<22
            constant number 3 @26..<27
        """)
    #expect(
      try parse(source, [], .andBindsTighter).treeDump == """
        or @0..<27
          comparison == @0..<6
            keyPath a @0..<1
            constant number 1 @5..<6
          and @10..<27
            comparison == @10..<16
              keyPath b @10..<11
              constant number 2 @15..<16
            comparison == @21..<27
              keyPath c @21..<22
              constant number 3 @26..<27
        """)
  }
}
