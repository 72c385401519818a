module example.com/gocases

go 1.22
