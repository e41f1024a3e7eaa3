from django.urls import path

app_name = "social"

urlpatterns: list = []
