import Sift
import SiftSyntax

/// The compiled form of the talk's filter, `SELF IN %@` over string ids: the ids alone.
///
/// A compiled ``SiftPredicate`` of that shape holds its own program, so a service with a
/// million users would spend gigabytes on copies of one program that differ only in three
/// constants. Every allow list shares one program, this type's ``contains(_:)``, and keeps
/// only its members. Kept for memory, not speed, by the figure `SiftBenchmarks
/// focus-scale` measures in one run (`compareEvaluators`; 2026-12-02, 100,000 users with
/// three ids each): 1,704 heap bytes per user with a `SiftPredicate` each, 272 with a
/// `NotificationFilter` each; the VM matched 3.3 M notifications/s and the filter decided
/// 2.6 M/s (a decision carries more than the match). It goes when a Focus service can hold
/// each user as shared code plus constants, as a predicate set does.
///
/// Membership is NSPredicate's literal string equality, byte for byte, exactly as the VM's
/// string sets compare (`String ==` would be canonical equivalence): ids of up to 15 bytes
/// as the two words of a small string, longer ones as bytes.
@usableFromInline
struct AllowList: Sendable, Hashable {
  /// The members as the predicate listed them (duplicates kept, order kept).
  let members: [String]
  /// The small-string words of each member of up to 15 bytes, or nil for a longer one.
  private let small: [SmallStringBits.Bits?]

  init(_ members: [String]) {
    self.members = members
    small = members.map { SmallStringBits.smallBits(of: $0) }
  }

  /// The ids of `SELF IN {…}` when `syntax` is exactly that, with no comparison options and
  /// only string constants on the right; nil for every other predicate.
  init?(_ syntax: PredicateSyntax) {
    guard case .comparison(let c) = syntax.kind, c.quantifier == nil, c.op == .in, c.options.isEmpty,
      case .evaluatedObject = c.lhs.kind
    else { return nil }
    var strings: [String] = []
    switch c.rhs.kind {
    case .constant(.array(let values)):
      for value in values {
        guard case .string(let s) = value else { return nil }
        strings.append(s)
      }
    case .aggregate(let elements):
      for element in elements {
        guard case .constant(.string(let s)) = element.kind else { return nil }
        strings.append(s)
      }
    default: return nil
    }
    self.init(strings)
  }

  /// Whether `subject` is one of the members, byte for byte.
  @inline(__always)
  func contains(_ subject: String) -> Bool {
    let bits = SmallStringBits.bits(subject)
    if SmallStringBits.isAvailable && SmallStringBits.isSmall(bits) {
      for k in small.indices {
        if let b = small[k] {
          if b.0 == bits.0 && b.1 == bits.1 { return true }
        } else if members[k].utf8.elementsEqual(subject.utf8) {
          return true
        }
      }
      return false
    }
    for member in members where member.utf8.elementsEqual(subject.utf8) { return true }
    return false
  }

  /// Byte-for-byte equality of the member lists, as membership is.
  @usableFromInline static func == (a: AllowList, b: AllowList) -> Bool {
    a.members.count == b.members.count && zip(a.members, b.members).allSatisfy { $0.utf8.elementsEqual($1.utf8) }
  }
  @usableFromInline func hash(into hasher: inout Hasher) {
    for member in members { hasher.combine(member.utf8.count); for byte in member.utf8 { hasher.combine(byte) } }
  }
}
