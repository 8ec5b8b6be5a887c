// SiftFocus: Apple's Focus filter model (SetFocusFilterIntent, parameters, app context,
// notification filtering, badges) for Swift on Linux, deciding notifications with Sift.
// Design and decisions: Documentation/FocusLayer.md.
@_exported import Sift
