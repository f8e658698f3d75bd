/// FlowKit's version, as `flowlint --version` and `flowrun --version` print it; the one place it is written.
package let flowKitVersion = "0.1.0"
