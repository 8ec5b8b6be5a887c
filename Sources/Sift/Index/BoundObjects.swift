/// The objects a predicate set's shared code reads from each predicate's object slots,
/// made once per distinct constant and kept for the set: a needle per (text, options,
/// test), a set per list of more than ``StringSet/linearLimit`` strings or with folding
/// options (a short literal list is bound as its array, searched in order: no object per
/// predicate). A predicate's object slots are interned too, as a run of pointers in
/// ``pool``: the focus shape's million predicates share one run.
final class BoundObjects {
  private struct NeedleKey: Hashable {
    var text: [UInt8]
    var options: UInt8
    var test: NeedleTest
  }

  /// Keeps every object alive while a run points at it.
  private var owned: [AnyObject] = []
  private var needles: [NeedleKey: StringNeedle] = [:]
  /// Runs of object pointers, back to back.
  @exclusivity(unchecked) private(set) var pool: ContiguousArray<UnsafeRawPointer?> = []
  private var runs: [[UInt]: UInt32] = [:]

  /// The offset in ``pool`` of the object run of a predicate of `shape` with `constants`.
  func run(for shape: PredicateShape, _ constants: [SiftValue]) -> UInt32 {
    guard let program = shape.program, program.code.objectCount > 0 else { return 0 }
    var refs = Array(program.pool.objectRefs)
    for (k, binding) in shape.bindings.enumerated() {
      switch binding {
      case .set(_, let object, let options)?:
        refs[object] = set(constants[k], options)
      case .needle(_, let object, let options, let test)?:
        guard case .string(let text) = constants[k] else { continue }
        refs[object] = needle(text, options, test)
      case .value?, nil: break
      }
    }
    let key = refs.map { UInt(bitPattern: $0) }
    if let offset = runs[key] { return offset }
    precondition(pool.count + refs.count < Int(UInt32.max), "too many objects in a predicate set")
    let offset = UInt32(pool.count)
    pool.append(contentsOf: refs)
    runs[key] = offset
    return offset
  }

  private func needle(_ text: String, _ options: ComparisonOptions, _ test: NeedleTest) -> UnsafeRawPointer {
    let key = NeedleKey(text: Array(text.utf8), options: UInt8(truncatingIfNeeded: options.rawValue), test: test)
    if let n = needles[key] { return UnsafeRawPointer(Unmanaged.passUnretained(n).toOpaque()) }
    let n = StringNeedle(text, options: options, test: test)
    needles[key] = n
    return UnsafeRawPointer(Unmanaged.passUnretained(n).toOpaque())
  }

  private func set(_ constant: SiftValue, _ options: ComparisonOptions) -> UnsafeRawPointer? {
    guard case .array(let elements) = constant else { return nil }
    if Self.isLinear(elements, options) { return nil }
    let s = StringSet(elements, options: options)
    owned.append(s)
    return UnsafeRawPointer(Unmanaged.passUnretained(s).toOpaque())
  }

  /// Whether a list is searched in order, with no set object (its run packs it:
  /// ``PackedStrings``).
  static func isLinear(_ elements: [SiftValue], _ options: ComparisonOptions) -> Bool {
    elements.count <= StringSet.linearLimit && options.isEmpty
  }

  /// Bytes held, about.
  var reservedBytes: Int { pool.capacity * 8 + runs.count * 48 + needles.count * 96 + owned.count * 160 }
}
