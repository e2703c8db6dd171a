package textfmt

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCommandLineSecrets: the flags that carry a credential on the command
// lines of the programs that take one are hidden, and only those: the
// same flag of another program, a flag that prompts, a variable that names
// where the credential is and the commands after the simple command stay.
func TestCommandLineSecrets(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"mysql, attached", "mysql -u root -pS3cretPass db -e 'select 1'", "mysql -u root -p" + p(10) + " db -e 'select 1'"},
		{"mysql, quoted", `mysqldump -p"S3 cret!" shop`, `mysqldump -p"` + p(8) + `" shop`},
		{"mysql, -p alone prompts and db is the database", "mysql -u root -p db", "mysql -u root -p db"},
		{"mysql, the port", "mariadb -h db -P3306 -pX1", "mariadb -h db -P3306 -p" + p(2)},
		{"mysql, a variable", "mysql -p$MYSQL_PWD db", "mysql -p$MYSQL_PWD db"},
		{"another program's -p", "echo -pS3cret; grep -pattern x", "echo -pS3cret; grep -pattern x"},
		{"sshpass", "sshpass -p 'Winter2024!' ssh root@10.0.0.5", "sshpass -p '" + p(11) + "' ssh root@10.0.0.5"},
		{"sshpass reading a file", "sshpass -f ~/.pw ssh host", "sshpass -f ~/.pw ssh host"},
		{"curl, user and password", "curl -u admin:Hunter2x! https://api.example.com", "curl -u admin:" + p(9) + " https://api.example.com"},
		{"curl, attached and long", "curl -uadmin:pw1 --user=bob:pw2 --proxy-user eve:pw3 x", "curl -uadmin:" + p(3) + " --user=bob:" + p(3) + " --proxy-user eve:" + p(3) + " x"},
		{"curl, a cluster of flags", "curl -su admin:P@ssw0rd!x https://x | jq .", "curl -su admin:" + p(10) + " https://x | jq ."},
		{"curl asks for the password", "curl -u admin https://x", "curl -u admin https://x"},
		{"a login subcommand", "docker login -u bob -p Passw0rd!23 registry.example.com", "docker login -u bob -p " + p(11) + " registry.example.com"},
		{"a login's long flag", "az login -u x@y.com --password 'hunter 2'", "az login -u x@y.com --password '" + p(8) + "'"},
		{"a login from standard input", "echo $PW | docker login --password-stdin -u bob", "echo $PW | docker login --password-stdin -u bob"},
		{"redis", "redis-cli -h cache -a MyRedisPass123 ping", "redis-cli -h cache -a " + p(14) + " ping"},
		{"redis, a variable in quotes", `redis-cli -a "$REDIS_PW" ping`, `redis-cli -a "$REDIS_PW" ping`},
		{"mongo", "mongosh mongodb://db -u admin -p S3cret1 --authenticationDatabase admin", "mongosh mongodb://db -u admin -p " + p(7) + " --authenticationDatabase admin"},
		{"smbclient", "smbclient //fs/share -U admin%Passw0rd", "smbclient //fs/share -U admin%" + p(8)},
		{"openssl", "openssl enc -aes-256-cbc -k MyEncKey2024 -in a -out b", "openssl enc -aes-256-cbc -k " + p(12) + " -in a -out b"},
		{"openssl's pass: and env:", "openssl pkcs12 -in a.p12 -passin pass:Secret1 -passout env:PW", "openssl pkcs12 -in a.p12 -passin pass:" + p(7) + " -passout env:PW"},
		{"htpasswd with a file", "htpasswd -b /etc/nginx/.htpasswd admin S3cure!pw", "htpasswd -b /etc/nginx/.htpasswd admin " + p(9)},
		{"htpasswd without a file", "htpasswd -nbB admin S3cure!pw", "htpasswd -nbB admin " + p(9)},
		{"htpasswd prompts", "htpasswd -c /etc/nginx/.htpasswd admin", "htpasswd -c /etc/nginx/.htpasswd admin"},
		{"ldap", "ldapsearch -x -D cn=admin,dc=x -w S3cret -b dc=x", "ldapsearch -x -D cn=admin,dc=x -w " + p(6) + " -b dc=x"},
		{"zip and 7z", "zip -P pw1 a.zip f && 7z a -ppw2 b.7z f", "zip -P " + p(3) + " a.zip f && 7z a -p" + p(3) + " b.7z f"},
		{"sqlcmd", "sqlcmd -S srv -U sa -P 'Str0ng!'", "sqlcmd -S srv -U sa -P '" + p(7) + "'"},
		{"ssh-keygen", "ssh-keygen -t ed25519 -N 'a phrase' -f k", "ssh-keygen -t ed25519 -N '" + p(8) + "' -f k"},
		{"gpg", "gpg --batch --passphrase hunter2 -c f", "gpg --batch --passphrase " + p(7) + " -c f"},
		{"keytool", "keytool -importkeystore -srcstorepass changeit -deststorepass s3cret", "keytool -importkeystore -srcstorepass " + p(8) + " -deststorepass " + p(6)},
		{"sqlplus", "sqlplus -s system/Oracle123@//db:1521/ORCL @report.sql; sqlplus /nolog; sqlplus / as sysdba",
			"sqlplus -s system/" + p(9) + "@//db:1521/ORCL @report.sql; sqlplus /nolog; sqlplus / as sysdba"},
		{"a path to the program", "/usr/bin/mysql -pX1 db", "/usr/bin/mysql -p" + p(2) + " db"},
		{"the simple command ends", "mysql -u root db; echo -pNotSecret | sh -c 'x -pY'", "mysql -u root db; echo -pNotSecret | sh -c 'x -pY'"},
		{"a command inside a sentence", "to run 'htpasswd -nb admin pw1'. Allow this call?", "to run 'htpasswd -nb admin " + p(3) + "'. Allow this call?"},
		{"a command in sh -c", `bash -c "mysql -pX1 db"`, `bash -c "mysql -p` + p(2) + ` db"`},
		{"a name inside a word is no command", "mycurl -u a:b; xmysql -pX", "mycurl -u a:b; xmysql -pX"},
		{"a line continuation", "mysql \\\n  -pX1 db", "mysql \\\n  -p" + p(2) + " db"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := SecretText(tt.in)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, got, SecretText(got), "redacting again")
			assert.Equal(t, everywhereShape(tt.in), SecretShape(tt.in), "the jumps between triggers")
		})
	}
}

// TestCommandLineSecretsJoinOtherRules: a credential another rule finds
// inside a command line is hidden with the flags' ones, in order.
func TestCommandLineSecretsJoinOtherRules(t *testing.T) {
	in := "curl -H 'Authorization: Bearer " + ghp + "' -u admin:pw1 https://u:pw2@h.example/?token=abc"
	got := SecretText(in)
	assert.Equal(t, "curl -H 'Authorization: Bearer "+p(len(ghp))+"' -u admin:"+p(3)+" https://u:"+p(3)+"@h.example/?token="+p(3), got)
	spans := SecretShape(in)
	for k := 1; k < len(spans); k++ {
		assert.LessOrEqual(t, spans[k-1].End, spans[k].Start, "spans in order and apart")
	}
}

// TestCommandNames holds the table commandKindsOf searches to what the
// search needs: sorted, unique, and within maxCommandName, and each name
// found by the command-line rule in text and in an argument vector.
func TestCommandNames(t *testing.T) {
	for i, c := range commandNames {
		if i > 0 && commandNames[i-1].name >= c.name {
			t.Errorf("commandNames: %q after %q: want sorted and unique", c.name, commandNames[i-1].name)
		}
		if len(c.name) > maxCommandName {
			t.Errorf("commandNames: %q is longer than maxCommandName (%d)", c.name, maxCommandName)
		}
		if got := commandKindsOf(c.name); got != c.kinds {
			t.Errorf("commandKindsOf(%q) = %v, want %v", c.name, got, c.kinds)
		}
		if kinds, end := commandNameAt("x; "+c.name+" -x", 3); kinds != c.kinds || end != 3+len(c.name) {
			t.Errorf("commandNameAt(%q) = %v, %d; want %v, %d", c.name, kinds, end, c.kinds, 3+len(c.name))
		}
		if !HasTrigger("cd /tmp && " + c.name + " -x") {
			t.Errorf("HasTrigger: no trigger in a command line that runs %s", c.name)
		}
	}
	for _, name := range []string{"", "m", "my", "mysq", "mysqlx", "Mysql", "zzz", "logins"} {
		if got := commandKindsOf(name); got != 0 {
			t.Errorf("commandKindsOf(%q) = %v, want 0", name, got)
		}
	}
}
