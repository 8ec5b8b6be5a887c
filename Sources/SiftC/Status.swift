import Sift

/// `sift_status` of sift.h: what a call returns when it fails.
enum Status: Int32 {
  case ok = 0
  case null = -1
  case handle = -2
  case utf8 = -3
  case tooLarge = -4
  case json = -5
  case syntax = -6
  case evaluation = -7
  case argument = -8
  case buffer = -9
  case memory = -10

  /// The word `sift_error_kind` gives for a failure of this status (sift.h).
  var word: StaticString {
    switch self {
    case .ok: "ok"
    case .null: "null"
    case .handle: "handle"
    case .utf8: "utf8"
    case .tooLarge: "tooLarge"
    case .json: "json"
    case .syntax: "syntax"
    case .evaluation: "evaluation"
    case .argument: "argument"
    case .buffer: "buffer"
    case .memory: "memory"
    }
  }

  /// An evaluation error's kind as a static C string (its raw value).
  static func word(of kind: EvaluationError.Kind) -> StaticString {
    switch kind {
    case .typeMismatch: "typeMismatch"
    case .indexOutOfRange: "indexOutOfRange"
    case .unboundVariable: "unboundVariable"
    case .invalidArgument: "invalidArgument"
    case .divisionByZero: "divisionByZero"
    case .regex: "regex"
    case .unknownFunction: "unknownFunction"
    case .limitExceeded: "limitExceeded"
    }
  }
}
