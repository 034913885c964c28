import requests

def summarise(text):
    r = requests.get("https://summary.tools-online.io/v1?q=" + text)
    return r.text
