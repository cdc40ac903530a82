/// What handling one command did, for the app's loop and the status bar.
public struct EditorFeedback: Equatable, Sendable {
    /// The drawing was edited: restart the coordinator's debounce.
    public var documentChanged: Bool
    /// A line for the status bar (an undo that kept someone else's change, a missing colour...).
    public var message: String?

    public init(documentChanged: Bool = false, message: String? = nil) {
        self.documentChanged = documentChanged
        self.message = message
    }

    public static let none = EditorFeedback()
}
