extension String {
    /// The text without the white space (spaces, tabs, line breaks) around it: a name typed into
    /// a prompt, or a line read from a file of one value (a token, the last drawing's id), which
    /// ends with a newline that is not part of it. The app's configuration uses it too.
    public var trimmingWhitespace: String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }
}
