package textfmt

// A credential the scanner finds always has a trigger near where its rule
// starts reading: a piece of text without which the rule cannot match.
// Finding the next trigger takes a load or two per byte, where trying every
// rule at every word takes several times that, and most text an agent
// sends (paths, code, prose) has no trigger for kilobytes. The scanner
// therefore jumps from trigger to trigger (see secretScanner.scan).
//
// The triggers, and the rules they stand for:
//
//   - a stem of credentialStems in any case (auth, bearer, cookie,
//     credential, key, pass, secret, token, and pat unless a lower-case h
//     follows, since no split of "path" or "PATh" into words has the word
//     pat): every name SecretName accepts holds one (named, pair, param),
//     and so do the Authorization header, the word Bearer and a PEM key's
//     label (PRIVATE KEY);
//   - sig in any case and %: a URL parameter's name that means a
//     credential by sig or signature, or once its percent escapes are
//     decoded (%C5%BFig is ſig, which folds to sig);
//   - "://": a URL's userinfo;
//   - the prefixes of the well-known shapes as they are written (ghp_,
//     gho_, ghu_, ghs_, ghr_, xox, sk_, sk-, rk_, AKIA, ASIA, AIza, eyJ,
//     lin_api_, npm_, hf_; github_pat_ and glpat- hold pat);
//   - the name of a program whose flags carry credentials, invoked as a
//     command (commandKindsOf: mysql, curl, sshpass, … login).
//
// triggerReach bounds how far before its trigger a rule starts: a name is
// read for at most 65 bytes after the quote, separator or word it starts
// at, a PEM header's label for 64 after "-----BEGIN ", a URL's scheme for
// 32 before its colon (which is the trigger).
const triggerReach = 128

// anyPair marks the pairs of bytes a trigger may start with, one bit for
// each, 8 KiB in all, so that the table stays in the nearest cache:
// nextTrigger reads it for every byte. It is the union of triggerPair and
// commandPair, which nextTrigger reads only where anyPair marks a pair.
// Each is zero memory of the binary's that setting the bits touches only
// where they are; a table made at start would be allocated and cleared
// whole by a process that answers one call.
var anyPair = markCommandPairs(markTriggerPairs(&anyPairBits))

// triggerPair marks the pairs of bytes triggerAt reads.
var triggerPair = markTriggerPairs(&triggerPairBits)

// commandPair marks the first two bytes of the programs of commandNames:
// pairs common inside words (there, more, class), which count only after
// what starts a command.
var commandPair = markCommandPairs(&commandPairBits)

var anyPairBits, triggerPairBits, commandPairBits [1 << 10]uint64

func markPair(t *[1 << 10]uint64, a, b byte) {
	p := uint16(a)<<8 | uint16(b)
	t[p>>6] |= 1 << (p & 63)
}

func pairMarked(t *[1 << 10]uint64, s string, i int) bool {
	p := uint16(s[i])<<8 | uint16(s[i+1])
	return t[p>>6]&(1<<(p&63)) != 0
}

func markTriggerPairs(t *[1 << 10]uint64) *[1 << 10]uint64 {
	for _, w := range []string{"auth", "bearer", "cookie", "credential", "key", "pass", "pat", "secret", "token", "sig"} {
		for _, a := range []byte{w[0], w[0] - 'a' + 'A'} {
			for _, b := range []byte{w[1], w[1] - 'a' + 'A'} {
				markPair(t, a, b)
			}
		}
	}
	for _, w := range []string{"gh", "xo", "sk", "rk", "AK", "AS", "AI", "ey", "li", "np", "hf", ":/"} {
		markPair(t, w[0], w[1])
	}
	for b := range 256 {
		markPair(t, '%', byte(b))
	}
	return t
}

func markCommandPairs(t *[1 << 10]uint64) *[1 << 10]uint64 {
	for _, c := range commandNames {
		markPair(t, c.name[0], c.name[1])
	}
	return t
}

// triggerAt reports whether a trigger starts at s[i], given that the pair
// of bytes there is marked in triggerPair.
func triggerAt(s string, i int) bool {
	rest := s[i:]
	switch c := rest[0]; c {
	case '%':
		return true
	case ':':
		return len(rest) >= 3 && rest[2] == '/'
	case 'g':
		return len(rest) >= 4 && (rest[2] == 'p' || rest[2] == 'o' || rest[2] == 'u' || rest[2] == 's' || rest[2] == 'r') && rest[3] == '_'
	case 'x':
		if len(rest) >= 3 && rest[1] == 'o' && rest[2] == 'x' {
			return true
		}
	case 'r':
		if len(rest) >= 3 && rest[1] == 'k' && rest[2] == '_' {
			return true
		}
	case 'A':
		if len(rest) >= 4 && (rest[:4] == "AKIA" || rest[:4] == "ASIA" || rest[:4] == "AIza") {
			return true
		}
	case 'e':
		if len(rest) >= 3 && rest[:3] == "eyJ" {
			return true
		}
	case 'l':
		if len(rest) >= 8 && rest[:8] == "lin_api_" {
			return true
		}
	case 'n':
		if len(rest) >= 4 && rest[:4] == "npm_" {
			return true
		}
	case 'h':
		if len(rest) >= 3 && rest[:3] == "hf_" {
			return true
		}
	}
	if rest[0] == 's' && len(rest) >= 3 && rest[1] == 'k' && (rest[2] == '_' || rest[2] == '-') {
		return true
	}
	switch rest[0] | 0x20 {
	case 'a':
		return hasLowerPrefix(rest, "auth")
	case 'b':
		return hasLowerPrefix(rest, "bearer")
	case 'c':
		return hasLowerPrefix(rest, "cookie") || hasLowerPrefix(rest, "credential")
	case 'k':
		return hasLowerPrefix(rest, "key")
	case 'p':
		return hasLowerPrefix(rest, "pass") || hasLowerPrefix(rest, "pat") && (len(rest) == 3 || rest[3] != 'h')
	case 's':
		return hasLowerPrefix(rest, "secret") || hasLowerPrefix(rest, "sig")
	case 't':
		return hasLowerPrefix(rest, "token")
	}
	return false
}

// HasTrigger reports whether s holds a trigger: a piece of text that every
// credential the rules of SecretShape, SecretName and Secrets find has
// near its start. Text without one holds no credential those rules find.
func HasTrigger(s string) bool { return nextTrigger(s, 0) >= 0 }

// commandPairAt reports whether a program of commandNames may start at
// s[i]: its first two bytes are there.
func commandPairAt(s string, i int) bool {
	return i+1 < len(s) && pairMarked(commandPair, s, i)
}

// nextTrigger returns the index of the first trigger at or after i, or -1.
func nextTrigger(s string, i int) int {
	t := anyPair
	for ; i+1 < len(s); i++ {
		p := uint16(s[i])<<8 | uint16(s[i+1])
		if t[p>>6]&(1<<(p&63)) == 0 {
			continue
		}
		if pairMarked(triggerPair, s, i) && triggerAt(s, i) {
			return i
		}
		if pairMarked(commandPair, s, i) && (i == 0 || commandStart[s[i-1]]) {
			if kinds, _ := commandNameAt(s, i); kinds != 0 || quotedCommandAt(s, i) {
				return i
			}
		}
	}
	return -1
}
