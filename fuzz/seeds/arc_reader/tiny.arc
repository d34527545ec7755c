filedesc://fuzz.arc 0.0.0.0 20240101000000 text/plain 65
1 0 Fuzz
URL IP-address Archive-date Content-type Archive-length

http://example.com/ 93.184.216.34 20240101000000 text/html 90
HTTP/1.0 200 OK
Content-Type: text/html

<html><body><p>An ARC page.</p></body></html>

http://example.com/ 93.184.216.34 20240101000000 text/html 90
HTTP/1.0 200 OK
Content-Type: text/html

<html><body><p>An ARC page.</p></body></html>

