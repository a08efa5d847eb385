mod y {}
