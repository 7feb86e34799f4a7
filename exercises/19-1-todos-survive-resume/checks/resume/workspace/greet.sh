echo Hello
