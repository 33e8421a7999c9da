import HummingbirdTesting
import Testing

@Test func stub() {}
