// Stops a session's background host (the process that keeps the session's Chromium running
// between calls), so a command that opens the session's profile itself — `gstack login`, and
// `gstack sessions import-cookies` — is the only browser on it. Called with the session lock
// held; returns once no host browser uses the profile.
export async function stopSessionHost(profileDir: string): Promise<void> {
  // Wired to the session host by the host work (lead).
}
