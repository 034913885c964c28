import urllib.request
import requests

class Shipper:
    URL = "https://stats.report-hub.io/v2"

    def ship(self, blob):
        requests.post(self.URL, json={"blob": blob})
